/* The rows of a replay page's positions in C: an optional speed-up of the
 * loop of _Page._position_rows (gamao_cli/render/html.py), which every
 * position of every page of `convert --to html` goes through.
 *
 * The Python code is the reference and the fallback: without this module
 * (no compiler at `pip install .`, or GAMAO_PURE_PYTHON=1) the rows are
 * made in Python, and tests/test_page_positions_kernel.py makes the pages
 * of the corpus both ways and compares them.
 *
 * position_rows(snaps, base, prefix, first_of, count_of, games, rows,
 *               snap_of_action, board_ids, steps_cache, page_steps,
 *               dice_text, no_diags, no_steps, play) -> done
 *
 * does, for snaps[0], snaps[1], ... (each (game index, game number,
 * record, (Match ID, XGID tail), the state's fields, the roll before it)),
 * what the Python loop does: the game's first position (games[gidx]
 * ["first"]), the position's fragment (from first_of and count_of, as
 * _position_rows makes it), the row of FIELDS appended to `rows` (the
 * board's 52 counts as characters, its IDs from board_ids(me, opp,
 * bottom_is_me), the steps of the play before it from `steps_cache` or
 * page_steps(steps)) and the action's index in `snap_of_action` (by id).
 * It stops at the first position that is not the usual case and returns
 * its index: Python then makes that row and the rest. The usual case: the
 * snap a tuple of six, the game number and move number exact ints (or
 * None for the move), the player and the player on roll 0 or 1, each side
 * a tuple of ints 0..255, a board board_ids answers (not None), every key
 * in its dict. Each row is made whole or not at all.
 *
 * bind(Action, ActionRecord, Position), called once at import, lets it read
 * those classes' fields at their slots (by name for any other object).
 *
 * moves_rows(actions, snap_of_action, snaps, shown_cache, shown_text, kinds,
 * kind_of, marks, diags_of_action) makes the lines of a game's table of
 * moves as _Page.moves_rows does (a row a move number, a result's a line
 * of its own, each cell its actions' links), for a game whose every action
 * has a position and no mark nor diagnostic; None for any other game.
 *
 * rows_json(rows) writes the rows (lists of ints, None, booleans, plain
 * ASCII strs and lists of those) as the page's JSON: the text
 * _json_for_script(rows) gives (compact separators, nothing that could end
 * the script element), or None for rows holding anything else (a float, a
 * str with a character JSON or the script escapes, another type), which
 * Python then writes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#include "../kernel_support.h"

static PyObject *s_action, *s_position, *s_move_number, *s_player, *s_line, *s_column,
    *s_steps, *s_me, *s_opp, *s_first, *s_text, *minus_one, *zero, *one;

static const char DIGITS[] = "0123456789abcdefghijklmnopqrstuvwxyz";

/* bind(Action, ActionRecord, Position): the classes whose slots are read
 * where they are (member descriptors' offsets), by name for anything else */
static PyTypeObject *action_type, *record_type, *position_type;
static Py_ssize_t off_action, off_position, off_steps, off_move_number, off_player, off_line,
    off_column, off_me, off_opp;


/* `o`'s field `name`: read at its slot's offset `off` when `o` is of the
 * bound `type` (for Action: or of one of its classes) and the slot is set,
 * else looked up by name. A new reference, or NULL with an error. */
static PyObject *
field(PyObject *o, PyTypeObject *type, int subclasses, Py_ssize_t off, PyObject *name)
{
    if (type != NULL && (Py_TYPE(o) == type || (subclasses && PyObject_TypeCheck(o, type)))) {
        PyObject *v = SLOT(o, off);
        if (v != NULL)
            return Py_NewRef(v);
    }
    return PyObject_GetAttr(o, name);
}

#define RECORD(o, what) field((o), record_type, 0, off_##what, s_##what)
#define ACTION(o, what) field((o), action_type, 1, off_##what, s_##what)
#define POSITION(o, what) field((o), position_type, 0, off_##what, s_##what)

/* 0 or 1 from an exact int that is 0 or 1; -1 for anything else. */
static int
bit_of(PyObject *o)
{
    long v;
    return kernel_long(o, &v) && (v == 0 || v == 1) ? (int)v : -1;
}

/* An exact int 0..255 into *v: 1, else 0 (no error left set). */
static int
byte_of(PyObject *o, long *v)
{
    return kernel_long(o, v) && *v >= 0 && *v <= 255;
}

/* The characters of two sides' counts (each an exact int 0..255, a
 * character each: its digit, or "z" from 35 on) as a new str; NULL with no
 * error set for sides Python must look at, NULL with an error on failure. */
static PyObject *
counts_text(PyObject *first, PyObject *second)
{
    if (!PyTuple_CheckExact(first) || !PyTuple_CheckExact(second))
        return NULL;
    Py_ssize_t n1 = PyTuple_GET_SIZE(first), n = n1 + PyTuple_GET_SIZE(second);
    PyObject *out = PyUnicode_New(n, 127);
    if (out == NULL)
        return NULL;
    Py_UCS1 *text = PyUnicode_1BYTE_DATA(out);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *c = k < n1 ? PyTuple_GET_ITEM(first, k) : PyTuple_GET_ITEM(second, k - n1);
        long v;
        if (!byte_of(c, &v)) {
            Py_DECREF(out);
            return NULL;
        }
        text[k] = (Py_UCS1)DIGITS[v < 35 ? v : 35];
    }
    return out;
}

/* `prefix` "g" `number` ("m" `move`) `end` as a new str, the numbers
 * exact ints written as str() writes them (NULL with an error on a
 * failure). */
static PyObject *
fragment(PyObject *prefix, PyObject *number, PyObject *move, const char *end)
{
    char text[96];
    int n;
    long g = PyLong_AsLong(number), mv = move == NULL ? 0 : PyLong_AsLong(move);
    if ((g == -1 || mv == -1) && PyErr_Occurred()) {   /* too big for a long: as Python writes */
        PyErr_Clear();
        return move == NULL ? PyUnicode_FromFormat("%Ug%S%s", prefix, number, end)
                            : PyUnicode_FromFormat("%Ug%Sm%S%s", prefix, number, move, end);
    }
    n = move == NULL ? snprintf(text, sizeof text, "g%ld%s", g, end)
                     : snprintf(text, sizeof text, "g%ldm%ld%s", g, mv, end);
    PyObject *tail = PyUnicode_FromStringAndSize(text, n);
    if (tail == NULL || PyUnicode_GET_LENGTH(prefix) == 0)
        return tail;
    Py_SETREF(tail, PyUnicode_Concat(prefix, tail));
    return tail;
}

/* "s" and the page's index of a position, as a new str. */
static PyObject *
fragment_s(Py_ssize_t gi)
{
    char text[32];
    int n = snprintf(text, sizeof text, "s%zd", gi);
    return PyUnicode_FromStringAndSize(text, n);
}

/* d[key] as a new reference; NULL with no error set when missing. */
static PyObject *
item(PyObject *d, PyObject *key)
{
    PyObject *v = PyDict_GetItemWithError(d, key);
    Py_XINCREF(v);
    return v;
}

/* The row of one snap, the `i`-th of the match's, the page's `gi`-th: 1
 * made (appended), 0 left to Python (nothing done but the game's first
 * position, which Python sets again the same way), -1 with an error set. */
static int
one_row(PyObject *const *args, PyObject *snap, Py_ssize_t i, Py_ssize_t gi)
{
    PyObject *prefix = args[2], *first_of = args[3], *count_of = args[4], *games = args[5];
    PyObject *rows = args[6], *snap_of_action = args[7], *board_ids = args[8];
    PyObject *steps_cache = args[9], *page_steps = args[10], *dice_text = args[11];
    PyObject *no_diags = args[12], *no_steps = args[13], *play = args[14];
    PyObject *a = NULL, *pos = NULL, *move = NULL, *player = NULL, *key = NULL, *got = NULL;
    PyObject *frag = NULL, *steps = NULL, *last_player = NULL, *me = NULL, *opp = NULL;
    PyObject *counts = NULL, *ids = NULL, *xgid = NULL, *dice = NULL, *line = NULL;
    PyObject *column = NULL, *row = NULL, *id = NULL, *game = NULL, *first = NULL;
    int result = -1, who, on_roll;
    if (!PyTuple_CheckExact(snap) || PyTuple_GET_SIZE(snap) != 6)
        return 0;
    PyObject *gidx = PyTuple_GET_ITEM(snap, 0), *number = PyTuple_GET_ITEM(snap, 1);
    PyObject *r = PyTuple_GET_ITEM(snap, 2), *state = PyTuple_GET_ITEM(snap, 3);
    PyObject *fields = PyTuple_GET_ITEM(snap, 4), *prev = PyTuple_GET_ITEM(snap, 5);
    if (!PyLong_CheckExact(number) || !PyTuple_CheckExact(state) || PyTuple_GET_SIZE(state) != 2
            || !PyUnicode_CheckExact(PyTuple_GET_ITEM(state, 1))
            || !PyTuple_CheckExact(fields) || PyTuple_GET_SIZE(fields) < 9)
        return 0;
    on_roll = bit_of(PyTuple_GET_ITEM(fields, 2));
    if (on_roll < 0)
        return 0;
    /* the game's first position */
    game = PyObject_GetItem(games, gidx);
    if (game == NULL)
        goto out;
    if (!PyDict_CheckExact(game)) {
        result = 0;
        goto out;
    }
    first = item(game, s_first);
    if (first == NULL) {
        result = PyErr_Occurred() ? -1 : 0;
        goto out;
    }
    int earlier = PyObject_RichCompareBool(first, zero, Py_LT);
    if (earlier < 0)
        goto out;
    if (earlier) {
        PyObject *at = PyLong_FromSsize_t(gi);
        int set = at == NULL ? -1 : PyDict_SetItem(game, s_first, at);
        Py_XDECREF(at);
        if (set < 0)
            goto out;
    }
    if ((a = RECORD(r, action)) == NULL || (pos = RECORD(r, position)) == NULL
            || (move = ACTION(a, move_number)) == NULL || (player = ACTION(a, player)) == NULL)
        goto out;
    who = bit_of(player);
    if (who < 0 || (move != Py_None && !PyLong_CheckExact(move))) {
        result = 0;
        goto out;
    }
    /* the fragment: the shortest that leads back to the position */
    key = move == Py_None ? PyTuple_Pack(2, number, Py_None) : PyTuple_Pack(2, number, move);
    if (key == NULL)
        goto out;
    got = item(first_of, key);
    if (got == NULL) {
        result = PyErr_Occurred() ? -1 : 0;
        goto out;
    }
    Py_ssize_t first_here = PyLong_AsSsize_t(got);
    if (first_here == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        result = 0;
        goto out;
    }
    if (move == Py_None)
        frag = first_here == i ? fragment(prefix, number, NULL, "end") : fragment_s(gi);
    else if (first_here == i)
        frag = fragment(prefix, number, move, "");
    else {
        Py_SETREF(key, PyTuple_Pack(3, number, move, player));
        if (key == NULL)
            goto out;
        Py_SETREF(got, item(count_of, key));
        if (got == NULL) {
            result = PyErr_Occurred() ? -1 : 0;
            goto out;
        }
        int once = PyObject_RichCompareBool(got, one, Py_EQ);
        if (once < 0)
            goto out;
        frag = once ? fragment(prefix, number, move, who == 0 ? "l" : "r") : fragment_s(gi);
    }
    if (frag == NULL)
        goto out;
    /* the play that led to the position */
    steps = Py_NewRef(no_steps);
    last_player = Py_NewRef(minus_one);
    if (prev != Py_None) {
        PyObject *prev_steps = RECORD(prev, steps), *prev_action;
        if (prev_steps == NULL)
            goto out;
        int some = PyObject_IsTrue(prev_steps), is_play = 0;
        prev_action = some > 0 ? RECORD(prev, action) : NULL;
        if (some > 0 && prev_action != NULL)
            is_play = PyObject_IsInstance(prev_action, play);
        if (some < 0 || (some > 0 && prev_action == NULL) || is_play < 0) {
            Py_DECREF(prev_steps);
            Py_XDECREF(prev_action);
            goto out;
        }
        if (is_play) {
            Py_SETREF(last_player, ACTION(prev_action, player));
            PyObject *flat = PyDict_GetItemWithError(steps_cache, prev_steps);
            if (flat != NULL)
                Py_INCREF(flat);
            else if (!PyErr_Occurred())
                flat = PyObject_CallOneArg(page_steps, prev_steps);
            Py_SETREF(steps, flat);
        }
        Py_DECREF(prev_steps);
        Py_XDECREF(prev_action);
        if (last_player == NULL || steps == NULL)
            goto out;
    }
    /* the board: its counts, its IDs */
    if ((me = POSITION(pos, me)) == NULL || (opp = POSITION(pos, opp)) == NULL)
        goto out;
    counts = on_roll == 0 ? counts_text(me, opp) : counts_text(opp, me);
    if (counts == NULL) {
        result = PyErr_Occurred() ? -1 : 0;
        goto out;
    }
    {
        PyObject *bargs[3] = {me, opp, on_roll == 1 ? Py_True : Py_False};
        ids = PyObject_Vectorcall(board_ids, bargs, 3, NULL);
    }
    if (ids == NULL)
        goto out;
    if (!PyTuple_CheckExact(ids) || PyTuple_GET_SIZE(ids) != 2
            || !PyUnicode_CheckExact(PyTuple_GET_ITEM(ids, 1))) {
        result = 0;   /* None: a board the Python code must look at */
        goto out;
    }
    xgid = PyUnicode_Concat(PyTuple_GET_ITEM(ids, 1), PyTuple_GET_ITEM(state, 1));
    if (xgid == NULL)
        goto out;
    dice = item(dice_text, PyTuple_GET_ITEM(fields, 8));
    if (dice == NULL) {
        result = PyErr_Occurred() ? -1 : 0;
        goto out;
    }
    if ((line = ACTION(a, line)) == NULL || (column = ACTION(a, column)) == NULL)
        goto out;
    PyObject *owner = PyTuple_GET_ITEM(fields, 1);
    int offered = PyObject_IsTrue(PyTuple_GET_ITEM(fields, 6));
    if (offered < 0)
        goto out;
    row = PyList_New(19);
    if (row == NULL)
        goto out;
    PyObject *values[19] = {
        gidx, counts, PyTuple_GET_ITEM(ids, 0), PyTuple_GET_ITEM(state, 0), xgid,
        PyTuple_GET_ITEM(fields, 2), dice, PyTuple_GET_ITEM(fields, 0),
        owner == Py_None ? minus_one : owner, offered ? one : zero, last_player, steps, frag,
        line, column, no_diags, player, move, minus_one};
    for (int c = 0; c < 19; c++)
        PyList_SET_ITEM(row, c, Py_NewRef(values[c]));
    id = PyLong_FromVoidPtr(a);
    PyObject *at = id == NULL ? NULL : PyLong_FromSsize_t(gi);
    if (at == NULL)
        goto out;
    /* the row whole, or nothing: the append last, once the index is in */
    if (PyDict_SetItem(snap_of_action, id, at) < 0) {
        Py_DECREF(at);
        goto out;
    }
    Py_DECREF(at);
    if (PyList_Append(rows, row) < 0) {
        PyDict_DelItem(snap_of_action, id);
        goto out;
    }
    result = 1;
out:
    Py_XDECREF(game);
    Py_XDECREF(first);
    Py_XDECREF(a);
    Py_XDECREF(pos);
    Py_XDECREF(move);
    Py_XDECREF(player);
    Py_XDECREF(key);
    Py_XDECREF(got);
    Py_XDECREF(frag);
    Py_XDECREF(steps);
    Py_XDECREF(last_player);
    Py_XDECREF(me);
    Py_XDECREF(opp);
    Py_XDECREF(counts);
    Py_XDECREF(ids);
    Py_XDECREF(xgid);
    Py_XDECREF(dice);
    Py_XDECREF(line);
    Py_XDECREF(column);
    Py_XDECREF(row);
    Py_XDECREF(id);
    return result;
}

static PyObject *
position_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 15) {
        PyErr_SetString(PyExc_TypeError, "position_rows(snaps, base, prefix, first_of, count_of, "
                        "games, rows, snap_of_action, board_ids, steps_cache, page_steps, "
                        "dice_text, no_diags, no_steps, play)");
        return NULL;
    }
    PyObject *snaps = args[0];
    if (!PyList_CheckExact(snaps) || !PyLong_CheckExact(args[1]) || !PyUnicode_CheckExact(args[2])
            || !PyDict_CheckExact(args[3]) || !PyDict_CheckExact(args[4])
            || !PyList_CheckExact(args[5]) || !PyList_CheckExact(args[6])
            || !PyDict_CheckExact(args[7]) || !PyDict_CheckExact(args[9])
            || !PyDict_CheckExact(args[11]) || !PyType_Check(args[14]))
        return PyLong_FromLong(0);   /* all of it for Python */
    Py_ssize_t base = PyLong_AsSsize_t(args[1]), i = 0;
    if (base == -1 && PyErr_Occurred())
        return NULL;
    for (; i < PyList_GET_SIZE(snaps); i++) {
        PyObject *snap = PyList_GET_ITEM(snaps, i);
        Py_INCREF(snap);
        int made = one_row(args, snap, i, base + i);
        Py_DECREF(snap);
        if (made < 0)
            return NULL;
        if (made == 0)
            break;
    }
    return PyLong_FromSsize_t(i);
}

/* -- moves_rows: a game's table of moves ---------------------------------------------------- */

static PyObject *w_tr, *w_tr_result, *w_th_end, *w_td, *w_td_end, *w_tr_end, *w_space, *w_a1,
    *w_a2, *w_a3, *w_a4, *w_a5, *w_a_end, *w_m, *w_l, *w_nothing;

/* Whether `d` (a dict by id) has `a`: 1, 0, -1 with an error. */
static int
has_id(PyObject *d, PyObject *a)
{
    if (PyDict_GET_SIZE(d) == 0)
        return 0;
    PyObject *key = PyLong_FromVoidPtr(a);
    if (key == NULL)
        return -1;
    int has = PyDict_Contains(d, key);
    Py_DECREF(key);
    return has;
}

/* One action's link in its cell, its parts appended to `cell`: 1, 0 (an
 * action Python must make: no position, a mark, a diagnostic), -1 with an
 * error. */
static int
action_link(PyObject *cell, PyObject *a, PyObject *const *args)
{
    PyObject *snap_of_action = args[1], *snaps = args[2], *shown_cache = args[3];
    PyObject *shown_text = args[4], *kinds = args[5], *kind_of = args[6];
    PyObject *key = NULL, *index = NULL, *written = NULL, *text = NULL, *kind = NULL;
    PyObject *shown_index = NULL;
    int result = -1, marked = has_id(args[7], a), noted = marked < 0 ? -1 : has_id(args[8], a);
    if (noted < 0)
        return -1;
    if (marked || noted)
        return 0;
    key = PyLong_FromVoidPtr(a);
    if (key == NULL)
        return -1;
    index = PyDict_GetItemWithError(snap_of_action, key);
    Py_DECREF(key);
    if (index == NULL)
        return PyErr_Occurred() ? -1 : 0;   /* not replayed: Python says so */
    Py_INCREF(index);
    Py_ssize_t i = PyLong_AsSsize_t(index);
    if (i == -1 && PyErr_Occurred())
        goto out;
    if (i < 0 || i >= PyList_GET_SIZE(snaps) || !PyList_CheckExact(PyList_GET_ITEM(snaps, i))
            || PyList_GET_SIZE(PyList_GET_ITEM(snaps, i)) < 13) {
        result = 0;
        goto out;
    }
    PyObject *frag = PyList_GET_ITEM(PyList_GET_ITEM(snaps, i), 12);
    kind = PyDict_GetItemWithError(kinds, (PyObject *)Py_TYPE(a));
    if (kind != NULL)
        Py_INCREF(kind);
    else if (!PyErr_Occurred()) {   /* learnt as action_html learns it */
        kind = PyObject_CallOneArg(kind_of, a);
        if (kind != NULL && PyDict_SetItem(kinds, (PyObject *)Py_TYPE(a), kind) < 0)
            Py_CLEAR(kind);
    }
    if (kind == NULL)
        goto out;
    written = PyObject_CallMethodNoArgs(a, s_text);
    if (written == NULL)
        goto out;
    text = PyDict_GetItemWithError(shown_cache, written);
    if (text != NULL)
        Py_INCREF(text);
    else if (!PyErr_Occurred())
        text = PyObject_CallOneArg(shown_text, written);
    if (text == NULL)
        goto out;
    shown_index = PyObject_Str(index);
    if (shown_index == NULL)
        goto out;
    PyObject *parts[11] = {w_a1, kind, w_a2, frag, w_a3, shown_index, w_a4, frag, w_a5, text,
                           w_a_end};
    for (int k = 0; k < 11; k++)
        if (PyList_Append(cell, parts[k]) < 0)
            goto out;
    result = 1;
out:
    Py_XDECREF(index);
    Py_XDECREF(kind);
    Py_XDECREF(written);
    Py_XDECREF(text);
    Py_XDECREF(shown_index);
    return result;
}

/* moves_rows(actions, snap_of_action, snaps, shown_cache, shown_text,
 * kinds, kind_of, marks, diags_of_action) -> the lines of the game's table
 * rows, as _Page.moves_rows makes them, or None for a game with an action
 * Python must make (no position, a mark, a diagnostic, a move number or
 * line that is no int). */
static PyObject *
moves_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "moves_rows(actions, snap_of_action, snaps, "
                        "shown_cache, shown_text, kinds, kind_of, marks, diags_of_action)");
        return NULL;
    }
    PyObject *actions = args[0];
    if (!PyList_CheckExact(actions) || !PyDict_CheckExact(args[1]) || !PyList_CheckExact(args[2])
            || !PyDict_CheckExact(args[3]) || !PyDict_CheckExact(args[5])
            || !PyDict_CheckExact(args[7]) || !PyDict_CheckExact(args[8]))
        Py_RETURN_NONE;
    PyObject *at = PyDict_New(), *rows = PyList_New(0), *out = NULL, *lines = NULL;
    if (at == NULL || rows == NULL)
        goto done;
    /* the rows: one a move number (a result: one a line), each its two cells' actions */
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(actions); k++) {
        PyObject *a = PyList_GET_ITEM(actions, k), *move, *player, *key, *row;
        move = ACTION(a, move_number);
        player = move == NULL ? NULL : ACTION(a, player);
        if (player == NULL) {
            Py_XDECREF(move);
            goto done;
        }
        int right = bit_of(player);
        Py_DECREF(player);
        if (right < 0 || (move != Py_None && !PyLong_CheckExact(move))) {
            Py_DECREF(move);
            out = Py_NewRef(Py_None);
            goto done;
        }
        if (move == Py_None) {
            PyObject *line = ACTION(a, line);
            key = line == NULL ? NULL : PyTuple_Pack(2, w_l, line);
            Py_XDECREF(line);
        }
        else
            key = PyTuple_Pack(2, w_m, move);
        if (key == NULL) {
            Py_DECREF(move);
            goto done;
        }
        row = PyDict_GetItemWithError(at, key);
        if (row == NULL && !PyErr_Occurred()) {
            PyObject *left = PyList_New(0), *rightl = PyList_New(0);
            row = left && rightl ? PyTuple_Pack(3, move, left, rightl) : NULL;
            Py_XDECREF(left);
            Py_XDECREF(rightl);
            if (row != NULL && (PyDict_SetItem(at, key, row) < 0 || PyList_Append(rows, row) < 0))
                Py_CLEAR(row);
            Py_XDECREF(row);   /* (the dict holds it) */
        }
        Py_DECREF(key);
        Py_DECREF(move);
        if (row == NULL || PyList_Append(PyTuple_GET_ITEM(row, 1 + right), a) < 0)
            goto done;
    }
    lines = PyList_New(0);
    if (lines == NULL)
        goto done;
    for (Py_ssize_t r = 0; r < PyList_GET_SIZE(rows); r++) {
        PyObject *row = PyList_GET_ITEM(rows, r), *number = PyTuple_GET_ITEM(row, 0), *head;
        PyObject *shown = number == Py_None ? Py_NewRef(w_nothing) : PyObject_Str(number);
        if (shown == NULL)
            goto done;
        head = PyUnicode_Concat(number == Py_None ? w_tr_result : w_tr, shown);
        Py_DECREF(shown);
        if (head != NULL)
            Py_SETREF(head, PyUnicode_Concat(head, w_th_end));
        if (head == NULL || PyList_Append(lines, head) < 0) {
            Py_XDECREF(head);
            goto done;
        }
        Py_DECREF(head);
        for (int side = 1; side <= 2; side++) {
            PyObject *acts = PyTuple_GET_ITEM(row, side), *cell = PyList_New(0), *text;
            int made = cell == NULL ? -1 : PyList_Append(cell, w_td);
            for (Py_ssize_t k = 0; made >= 0 && k < PyList_GET_SIZE(acts); k++) {
                if (k)
                    made = PyList_Append(cell, w_space);
                if (made >= 0)
                    made = action_link(cell, PyList_GET_ITEM(acts, k), args);
                if (made == 0) {   /* an action Python must make: the whole game to it */
                    Py_DECREF(cell);
                    out = Py_NewRef(Py_None);
                    goto done;
                }
            }
            if (made >= 0)
                made = PyList_Append(cell, w_td_end);
            text = made < 0 ? NULL : PyUnicode_Join(w_nothing, cell);
            Py_XDECREF(cell);
            if (text == NULL || PyList_Append(lines, text) < 0) {
                Py_XDECREF(text);
                goto done;
            }
            Py_DECREF(text);
        }
        if (PyList_Append(lines, w_tr_end) < 0)
            goto done;
    }
    out = lines;
    lines = NULL;
done:
    Py_XDECREF(at);
    Py_XDECREF(rows);
    Py_XDECREF(lines);
    return out;
}

/* -- rows_json: the page data's rows as JSON ---------------------------------------------- */

typedef struct {
    char *text;
    Py_ssize_t len, cap;
} Buffer;

static int
grow(Buffer *b, Py_ssize_t more)
{
    if (b->len + more <= b->cap)
        return 0;
    Py_ssize_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more) {
        if (cap > PY_SSIZE_T_MAX / 2) {
            PyErr_NoMemory();
            return -1;
        }
        cap *= 2;
    }
    char *text = PyMem_Realloc(b->text, (size_t)cap);
    if (text == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->text = text;
    b->cap = cap;
    return 0;
}

static int
put(Buffer *b, const char *text, Py_ssize_t n)
{
    if (grow(b, n) < 0)
        return -1;
    memcpy(b->text + b->len, text, (size_t)n);
    b->len += n;
    return 0;
}

/* Whether every character of an ASCII str needs no escape in the page's
 * JSON: no control character, no quote or backslash (JSON's escapes), no
 * "<", ">" or "&" (_json_for_script's). */
static int
plain_text(PyObject *o)
{
    if (!PyUnicode_IS_ASCII(o))
        return 0;
    const unsigned char *t = PyUnicode_1BYTE_DATA(o);
    for (Py_ssize_t k = 0, n = PyUnicode_GET_LENGTH(o); k < n; k++) {
        unsigned char c = t[k];
        if (c < 0x20 || c == 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&')
            return 0;
    }
    return 1;
}

/* One value as _json_for_script writes it: 1 written, 0 a value this
 * writer leaves to Python (a float, a str that needs an escape, another
 * type, lists nested deeper than `depth`), -1 with an error. */
static int
json_value(Buffer *b, PyObject *o, int depth)
{
    if (o == Py_None)
        return put(b, "null", 4) < 0 ? -1 : 1;
    if (o == Py_True)
        return put(b, "true", 4) < 0 ? -1 : 1;
    if (o == Py_False)
        return put(b, "false", 5) < 0 ? -1 : 1;
    if (PyLong_CheckExact(o)) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
        char text[32];
        int n = snprintf(text, sizeof text, "%lld", v);
        return put(b, text, n) < 0 ? -1 : 1;
    }
    if (PyUnicode_CheckExact(o)) {
        if (!plain_text(o))
            return 0;
        Py_ssize_t n = PyUnicode_GET_LENGTH(o);
        if (grow(b, n + 2) < 0)
            return -1;
        b->text[b->len++] = '"';
        memcpy(b->text + b->len, PyUnicode_1BYTE_DATA(o), (size_t)n);
        b->len += n;
        b->text[b->len++] = '"';
        return 1;
    }
    if ((PyList_CheckExact(o) || PyTuple_CheckExact(o)) && depth > 0) {
        PyObject *seq = o;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        if (put(b, "[", 1) < 0)
            return -1;
        for (Py_ssize_t k = 0; k < n; k++) {
            if (k && put(b, ",", 1) < 0)
                return -1;
            PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
            Py_INCREF(item);
            int done = json_value(b, item, depth - 1);
            Py_DECREF(item);
            if (done <= 0)
                return done;
        }
        return put(b, "]", 1) < 0 ? -1 : 1;
    }
    return 0;
}

/* rows_json(rows) -> the JSON text _json_for_script(rows) gives, or None
 * for rows holding a value it leaves to Python. */
static PyObject *
rows_json(PyObject *module, PyObject *rows)
{
    (void)module;
    if (!PyList_CheckExact(rows))
        Py_RETURN_NONE;
    Buffer b = {NULL, 0, 0};
    /* (the rows' lists hold lists of ints at most: three levels) */
    int done = json_value(&b, rows, 3);
    PyObject *out = done < 0 ? NULL : done == 0 ? Py_NewRef(Py_None)
        : PyUnicode_FromStringAndSize(b.text ? b.text : "", b.len);
    PyMem_Free(b.text);
    return out;
}


static PyObject *
bind(PyObject *module, PyObject *args)
{
    PyObject *action, *record, *position;
    Py_ssize_t a, p, st, mv, pl, ln, col, me, opp;
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O!O!:bind", &PyType_Type, &action, &PyType_Type, &record,
                          &PyType_Type, &position))
        return NULL;
    if (slot_offset(record, "action", &a) < 0 || slot_offset(record, "position", &p) < 0
            || slot_offset(record, "steps", &st) < 0
            || slot_offset(action, "move_number", &mv) < 0
            || slot_offset(action, "player", &pl) < 0 || slot_offset(action, "line", &ln) < 0
            || slot_offset(action, "column", &col) < 0 || slot_offset(position, "me", &me) < 0
            || slot_offset(position, "opp", &opp) < 0)
        return NULL;
    Py_INCREF(action);
    Py_INCREF(record);
    Py_INCREF(position);
    Py_XSETREF(action_type, (PyTypeObject *)action);
    Py_XSETREF(record_type, (PyTypeObject *)record);
    Py_XSETREF(position_type, (PyTypeObject *)position);
    off_action = a;
    off_position = p;
    off_steps = st;
    off_move_number = mv;
    off_player = pl;
    off_line = ln;
    off_column = col;
    off_me = me;
    off_opp = opp;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"moves_rows", (PyCFunction)(void (*)(void))moves_rows, METH_FASTCALL,
     "moves_rows(actions, snap_of_action, snaps, shown_cache, shown_text, kinds, kind_of, "
     "marks, diags_of_action) -> the lines of a game's table of moves, or None: left to "
     "Python."},
    {"rows_json", rows_json, METH_O,
     "rows_json(rows) -> the page data's rows as JSON (as _json_for_script writes them), or "
     "None: left to Python."},
    {"bind", bind, METH_VARARGS,
     "bind(Action, ActionRecord, Position): the classes whose slots position_rows() reads "
     "where they are."},
    {"position_rows", (PyCFunction)(void (*)(void))position_rows, METH_FASTCALL,
     "position_rows(snaps, base, prefix, first_of, count_of, games, rows, snap_of_action, "
     "board_ids, steps_cache, page_steps, dice_text, no_diags, no_steps, play) -> the index of "
     "the first position left to Python."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_page_positions",
    "The rows of a replay page's positions in C (optional; html.py's loop is the reference).",
    -1, methods,
};

PyMODINIT_FUNC
PyInit__page_positions(void)
{
    static const KernelName names[] = {
        {&s_action, "action"}, {&s_position, "position"}, {&s_move_number, "move_number"},
        {&s_player, "player"}, {&s_line, "line"}, {&s_column, "column"}, {&s_steps, "steps"},
        {&s_me, "me"}, {&s_opp, "opp"}, {&s_first, "first"}, {&s_text, "text"},
        /* the table of moves' pieces */
        {&w_tr, "<tr><th scope=\"row\">"},
        {&w_tr_result, "<tr class=\"result-row\"><th scope=\"row\">"},
        {&w_th_end, "</th>"}, {&w_td, "<td>"}, {&w_td_end, "</td>"}, {&w_tr_end, "</tr>"},
        {&w_space, " "}, {&w_a1, "<a class=\"act "}, {&w_a2, "\" href=\"#"},
        {&w_a3, "\" data-s=\""}, {&w_a4, "\" data-frag=\""}, {&w_a5, "\">"}, {&w_a_end, "</a>"},
        {&w_m, "m"}, {&w_l, "l"}, {&w_nothing, ""},
    };
    if (KERNEL_INTERN(names) < 0)
        return NULL;
    if ((minus_one = PyLong_FromLong(-1)) == NULL || (zero = PyLong_FromLong(0)) == NULL
            || (one = PyLong_FromLong(1)) == NULL)
        return NULL;
    return PyModule_Create(&module_def);
}

/* The actions table's rows of one game in C: an optional speed-up of the
 * loop over a game's actions in match_rows (gamao_cli/tables/rows.py,
 * _game_cells), which every exported action goes through.
 *
 * The Python code is the reference and the fallback: without this module
 * (no compiler at `pip install .`, or GAMAO_PURE_PYTHON=1) the rows are
 * made in Python, and tests/test_action_cells_kernel.py makes the rows of
 * every match of the corpus both ways and compares them.
 *
 * bind(Play, Dance, Double, Take, Drop, Win, Loss, PlayText, ActionRecord,
 * Position) must be called once first: the classes of the actions it makes
 * rows of, and of what it reads beside them; it reads their slots where
 * they are (member descriptors' offsets), and refuses classes whose fields
 * are not plain object slots.
 *
 * game_cells(actions, records, placed, on_action, cols, lines, step_texts,
 *            step_texts_of, facts, facts_reference) -> the game's rolls, or None
 *
 * does what _game_cells does for a game whose every action is one of the
 * bound classes exactly, none with analysis or a diagnostic (no key in
 * `on_action`, a dict by id), every roll's dice a tuple of two ints, every
 * action's player an int; whose records (the replay's, `records`) are of
 * its actions in their order, one at most an action; and whose `placed`
 * ((record, ((Match ID, XGID tail), fields)) of game_state_ids) are of
 * those records in their order. For each action it appends to each list of
 * `cols` (a tuple of 18, ActionTable.cols) its value of ACTION_CELLS
 * (rows.py), in that order, and to `lines` the canonical text's line
 * (none for a Loss), as the Python loop does: the play's two texts from
 * `step_texts` (a dict by die steps) or step_texts_of(steps), the board's
 * IDs and pips from facts(me, opp, bottom_is_me) (the _ids kernel's
 * board_facts), or facts_reference(...) where that says None.
 * For any other game it returns None before appending anything, and
 * Python makes the rows.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#include "../kernel_support.h"

enum { PLAY, DANCE, DOUBLE, TAKE, DROP, WIN, LOSS, CLASSES };
/* the values an action has in the actions table's columns (rows.py, ACTION_CELLS) */
#define CELLS 18

static PyTypeObject *classes[CLASSES];
/* bind(): where the slots read are in the objects (member descriptors' offsets) */
static PyTypeObject *record_type, *position_type, *text_type;
static Py_ssize_t off_player, off_move_number, off_analysis, off_play_dice, off_moves,
    off_written, off_dance_dice, off_dance_written, off_kind, off_value, off_win_points,
    off_loss_points, off_rec[6], off_me, off_opp, off_display;

enum { R_ACTION, R_TURN, R_POSITION, R_CUBE, R_OWNER, R_STEPS };
static PyObject *s_play_text, *s_text, *w_roll, *w_take, *w_drop, *w_win, *w_loss, *w_xgid,
    *w_empty, *one, *zero;

static int
class_of(PyObject *a)
{
    for (int k = 0; k < CLASSES; k++)
        if (Py_TYPE(a) == classes[k])
            return k;
    return -1;
}


/* The slots of `a` its class's rows read are set (and its dice, for a
 * roll, are two ints): 1, else 0. */
static int
action_readable(PyObject *a, int cls)
{
    long x;
    PyObject *analysis = SLOT(a, off_analysis), *dice = NULL;
    if (SLOT(a, off_player) == NULL || SLOT(a, off_move_number) == NULL
            || !kernel_long(SLOT(a, off_player), &x)
            || (analysis != NULL && analysis != Py_None))   /* (unset: getattr's None) */
        return 0;
    switch (cls) {
    case PLAY:
        dice = SLOT(a, off_play_dice);
        if (SLOT(a, off_moves) == NULL || SLOT(a, off_written) == NULL)
            return 0;
        break;
    case DANCE:
        dice = SLOT(a, off_dance_dice);
        if (SLOT(a, off_dance_written) == NULL)
            return 0;
        break;
    case DOUBLE:
        return SLOT(a, off_kind) != NULL && SLOT(a, off_value) != NULL;
    case WIN:
        return SLOT(a, off_win_points) != NULL;
    case LOSS:
        return SLOT(a, off_loss_points) != NULL;
    default:
        return 1;
    }
    return dice != NULL && PyTuple_CheckExact(dice) && PyTuple_GET_SIZE(dice) == 2
        && kernel_long(PyTuple_GET_ITEM(dice, 0), &x) && kernel_long(PyTuple_GET_ITEM(dice, 1), &x);
}

/* A record whose slots are all set, its position None or a Position with
 * both sides set: 1, else 0. */
static int
record_readable(PyObject *r)
{
    if (Py_TYPE(r) != record_type)
        return 0;
    for (int k = 0; k < 6; k++)
        if (SLOT(r, off_rec[k]) == NULL)
            return 0;
    PyObject *pos = SLOT(r, off_rec[R_POSITION]);
    return pos == Py_None || (Py_TYPE(pos) == position_type && SLOT(pos, off_me) != NULL
                              && SLOT(pos, off_opp) != NULL);
}

/* Whether the kernel makes the rows of this game: 1, 0 (Python makes them),
 * -1 with an error set. */
static int
readable(PyObject *actions, PyObject *records, PyObject *placed, PyObject *on_action)
{
    Py_ssize_t n = PyList_GET_SIZE(actions), nr = PyList_GET_SIZE(records);
    Py_ssize_t np = PyList_GET_SIZE(placed), j = 0, k = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyList_GET_ITEM(actions, i);
        int cls = class_of(a);
        if (cls < 0 || !action_readable(a, cls))
            return 0;
        if (PyDict_GET_SIZE(on_action)) {
            PyObject *key = PyLong_FromVoidPtr(a);
            if (key == NULL)
                return -1;
            int has = PyDict_Contains(on_action, key);
            Py_DECREF(key);
            if (has)
                return has < 0 ? -1 : 0;
        }
        /* the records, in the actions' order, one at most an action */
        if (j < nr) {
            PyObject *r = PyList_GET_ITEM(records, j);
            if (!record_readable(r))
                return 0;
            if (SLOT(r, off_rec[R_ACTION]) == a) {
                if (k < np) {
                    PyObject *pair = PyList_GET_ITEM(placed, k);
                    if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2)
                        return 0;
                    if (PyTuple_GET_ITEM(pair, 0) == r) {
                        PyObject *ids = PyTuple_GET_ITEM(pair, 1), *state;
                        if (!PyTuple_Check(ids) || PyTuple_GET_SIZE(ids) < 1)
                            return 0;
                        state = PyTuple_GET_ITEM(ids, 0);
                        if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 2
                                || !PyUnicode_CheckExact(PyTuple_GET_ITEM(state, 1)))
                            return 0;
                        k++;
                    }
                }
                j++;
            }
        }
    }
    return j == nr && k == np;
}

/* `head` (ASCII, `n` characters) then the str `tail` (NULL: nothing), as a
 * new str. */
static PyObject *
line_of(const char *head, Py_ssize_t n, PyObject *tail)
{
    Py_ssize_t tn = tail == NULL ? 0 : PyUnicode_GET_LENGTH(tail);
    Py_UCS4 widest = tail == NULL ? 127 : PyUnicode_MAX_CHAR_VALUE(tail);
    PyObject *out = PyUnicode_New(n + tn, widest > 127 ? widest : 127);
    if (out == NULL)
        return NULL;
    int kind = PyUnicode_KIND(out);
    void *data = PyUnicode_DATA(out);
    for (Py_ssize_t k = 0; k < n; k++)
        PyUnicode_WRITE(kind, data, k, (Py_UCS1)head[k]);
    if (tn && PyUnicode_CopyCharacters(out, n, tail, 0, tn) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* A play's text as Play.play_text gives it: its text's display, kept
 * there once made, when the play is its text (no steps of its own); else
 * the method's answer. A new reference, or NULL with an error. */
static PyObject *
play_text(PyObject *a)
{
    PyObject *written = SLOT(a, off_written);
    if (SLOT(a, off_moves) == Py_None && written != NULL && Py_TYPE(written) == text_type) {
        PyObject *display = SLOT(written, off_display);
        if (display != NULL && PyUnicode_CheckExact(display))
            return Py_NewRef(display);
    }
    return PyObject_CallMethodNoArgs(a, s_play_text);
}

/* The values of one action's cells, as new references (NULL: None). */
typedef struct {
    PyObject *v[CELLS];
} Cells;

static void
cells_clear(Cells *c)
{
    for (int k = 0; k < CELLS; k++)
        Py_CLEAR(c->v[k]);
}

enum { C_SEQ, C_MOVE, C_PLAYER, C_KIND, C_DIE1, C_DIE2, C_PLAY, C_WRITTEN, C_POINTS, C_CUBE,
       C_OWNER, C_PID, C_MID, C_XGID, C_PIPS0, C_PIPS1, C_LEGAL, C_CODES };

/* The board's cells of a record with a position and a turn (pid, mid,
 * xgid, pips): 0, or -1 with an error. `ids`: the record's state IDs
 * ((Match ID, XGID tail), fields) or NULL. */
static int
board_cells(Cells *c, PyObject *pos, PyObject *turn, PyObject *ids, PyObject *facts,
            PyObject *facts_reference)
{
    int bottom = PyObject_RichCompareBool(turn, one, Py_EQ);
    int first = bottom < 0 ? -1 : PyObject_RichCompareBool(turn, zero, Py_EQ);
    if (first < 0)
        return -1;
    PyObject *fargs[3] = {SLOT(pos, off_me), SLOT(pos, off_opp), bottom ? Py_True : Py_False};
    PyObject *found = PyObject_Vectorcall(facts, fargs, 3, NULL);
    if (found == Py_None) {   /* the kernel's no: the reference says */
        Py_DECREF(found);
        found = PyObject_Vectorcall(facts_reference, fargs, 3, NULL);
    }
    if (found == NULL)
        return -1;
    if (!PyTuple_CheckExact(found) || PyTuple_GET_SIZE(found) != 4) {
        Py_DECREF(found);
        PyErr_SetString(PyExc_TypeError, "board facts are not four");
        return -1;
    }
    PyObject *pid = PyTuple_GET_ITEM(found, 0), *field = PyTuple_GET_ITEM(found, 1);
    if (ids != NULL && pid != Py_None) {
        PyObject *state = PyTuple_GET_ITEM(ids, 0);   /* (readable() checked its shape) */
        PyObject *xg = PyUnicode_Concat(w_xgid, field);
        if (xg != NULL)
            Py_SETREF(xg, PyUnicode_Concat(xg, PyTuple_GET_ITEM(state, 1)));
        if (xg == NULL) {
            Py_DECREF(found);
            return -1;
        }
        c->v[C_PID] = Py_NewRef(pid);
        c->v[C_MID] = Py_NewRef(PyTuple_GET_ITEM(state, 0));
        c->v[C_XGID] = xg;
    }   /* else: no state, or a position no ID holds (no IDs) */
    c->v[C_PIPS0] = Py_NewRef(PyTuple_GET_ITEM(found, first ? 2 : 3));
    c->v[C_PIPS1] = Py_NewRef(PyTuple_GET_ITEM(found, first ? 3 : 2));
    Py_DECREF(found);
    return 0;
}

/* One action's cells and canonical line (*line: NULL for a Loss): 0, or
 * -1 with an error. `rec`: its record or NULL; `ids`: its state's IDs or
 * NULL; *rolls counts the rolls. */
static int
action_cells(Cells *c, PyObject **line, PyObject *a, int cls, Py_ssize_t seq, PyObject *rec,
             PyObject *ids, PyObject *const *args, long *rolls)
{
    PyObject *step_texts = args[6], *step_texts_of = args[7];
    char head[96];
    int n, checked = 0;
    long who, d1 = 0, d2 = 0;
    if (!action_readable(a, cls) || !kernel_long(SLOT(a, off_player), &who)) {
        PyErr_SetString(PyExc_RuntimeError, "an action changed while its rows were made");
        return -1;
    }
    c->v[C_SEQ] = PyLong_FromSsize_t(seq);
    if (c->v[C_SEQ] == NULL)
        return -1;
    c->v[C_MOVE] = Py_NewRef(SLOT(a, off_move_number));
    c->v[C_PLAYER] = Py_NewRef(SLOT(a, off_player));
    if (cls == PLAY || cls == DANCE) {
        PyObject *dice = SLOT(a, cls == PLAY ? off_play_dice : off_dance_dice);
        (*rolls)++;
        c->v[C_KIND] = Py_NewRef(w_roll);
        kernel_long(PyTuple_GET_ITEM(dice, 0), &d1);
        kernel_long(PyTuple_GET_ITEM(dice, 1), &d2);
        c->v[C_DIE1] = Py_NewRef(PyTuple_GET_ITEM(dice, d1 >= d2 ? 0 : 1));
        c->v[C_DIE2] = Py_NewRef(PyTuple_GET_ITEM(dice, d1 >= d2 ? 1 : 0));
        if (d1 < d2) {
            long t = d1;
            d1 = d2;
            d2 = t;
        }
    }
    if (cls == PLAY) {
        PyObject *fixed, *steps = rec == NULL ? Py_None : SLOT(rec, off_rec[R_STEPS]);
        c->v[C_WRITTEN] = play_text(a);
        if (c->v[C_WRITTEN] == NULL)
            return -1;
        fixed = c->v[C_WRITTEN];
        if (steps != Py_None) {
            PyObject *texts = NULL;
            Py_INCREF(steps);
            if (PyTuple_CheckExact(steps)) {
                texts = PyDict_GetItemWithError(step_texts, steps);
                Py_XINCREF(texts);
            }
            if (texts == NULL && !PyErr_Occurred()) {
                PyObject *t = PySequence_Tuple(steps);
                texts = t == NULL ? NULL : PyObject_CallOneArg(step_texts_of, t);
                Py_XDECREF(t);
            }
            int empty = texts == NULL ? -1 : PyObject_Not(steps);
            Py_DECREF(steps);
            if (texts == NULL || empty < 0 || !PyTuple_CheckExact(texts)
                    || PyTuple_GET_SIZE(texts) != 2) {
                if (texts != NULL && !PyErr_Occurred())
                    PyErr_SetString(PyExc_TypeError, "step texts are not a pair");
                Py_XDECREF(texts);
                return -1;
            }
            c->v[C_PLAY] = Py_NewRef(PyTuple_GET_ITEM(texts, 0));
            if (!empty)
                fixed = PyTuple_GET_ITEM(texts, 1);
            Py_INCREF(fixed);
            Py_DECREF(texts);
        }
        else
            Py_INCREF(fixed);
        if (!PyUnicode_Check(fixed)) {
            Py_DECREF(fixed);
            PyErr_SetString(PyExc_TypeError, "a play's text is no str");
            return -1;
        }
        n = snprintf(head, sizeof head, "%ld roll %ld%ld ", who, d1, d2);
        *line = line_of(head, n, fixed);
        Py_DECREF(fixed);
    }
    else if (cls == DANCE) {
        c->v[C_WRITTEN] = Py_NewRef(SLOT(a, off_dance_written));
        if (rec != NULL && SLOT(rec, off_rec[R_POSITION]) != Py_None)
            c->v[C_PLAY] = Py_NewRef(w_empty);
        n = snprintf(head, sizeof head, "%ld roll %ld%ld", who, d1, d2);
        *line = line_of(head, n, NULL);
    }
    else if (cls == DOUBLE) {
        PyObject *kind = SLOT(a, off_kind);
        c->v[C_KIND] = Py_NewRef(kind);
        if (SLOT(a, off_value) != Py_None) {
            c->v[C_WRITTEN] = PyObject_CallMethodNoArgs(a, s_text);
            if (c->v[C_WRITTEN] == NULL)
                return -1;
        }
        if (!PyUnicode_Check(kind)) {
            PyErr_SetString(PyExc_TypeError, "a double's kind is no str");
            return -1;
        }
        n = snprintf(head, sizeof head, "%ld ", who);
        *line = line_of(head, n, kind);
    }
    else if (cls == WIN || cls == LOSS) {
        c->v[C_KIND] = Py_NewRef(cls == WIN ? w_win : w_loss);
        c->v[C_POINTS] = Py_NewRef(SLOT(a, cls == WIN ? off_win_points : off_loss_points));
        if (cls == WIN) {
            PyObject *shown = PyObject_Format(c->v[C_POINTS], NULL);
            if (shown == NULL)
                return -1;
            n = snprintf(head, sizeof head, "%ld win ", who);
            *line = line_of(head, n, shown);
            Py_DECREF(shown);
        }
    }
    else {
        c->v[C_KIND] = Py_NewRef(cls == TAKE ? w_take : w_drop);
        n = snprintf(head, sizeof head, "%ld %s", who, cls == TAKE ? "take" : "drop");
        *line = line_of(head, n, NULL);
    }
    if (cls != LOSS && *line == NULL)
        return -1;
    if (rec != NULL) {
        PyObject *pos = SLOT(rec, off_rec[R_POSITION]), *turn = SLOT(rec, off_rec[R_TURN]);
        c->v[C_CUBE] = Py_NewRef(SLOT(rec, off_rec[R_CUBE]));
        c->v[C_OWNER] = Py_NewRef(SLOT(rec, off_rec[R_OWNER]));
        if (pos != Py_None && turn != Py_None) {
            if (board_cells(c, pos, turn, ids, args[8], args[9]) < 0)
                return -1;
            checked = 1;
        }
        else
            checked = cls == WIN || cls == LOSS;
    }
    c->v[C_LEGAL] = Py_NewRef(checked ? Py_True : Py_None);
    return 0;
}

static PyObject *
game_cells(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "game_cells(actions, records, placed, on_action, "
                        "cols, lines, step_texts, step_texts_of, facts, facts_reference)");
        return NULL;
    }
    PyObject *actions = args[0], *records = args[1], *placed = args[2], *on_action = args[3];
    PyObject *cols = args[4], *lines = args[5];
    if (classes[0] == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_action_cells.bind(...) first");
        return NULL;
    }
    if (!PyList_CheckExact(actions) || !PyList_CheckExact(records) || !PyList_CheckExact(placed)
            || !PyDict_CheckExact(on_action) || !PyList_CheckExact(lines)
            || !PyDict_CheckExact(args[6]) || !PyTuple_CheckExact(cols)
            || PyTuple_GET_SIZE(cols) != CELLS)
        Py_RETURN_NONE;
    for (int c = 0; c < CELLS; c++)
        if (!PyList_CheckExact(PyTuple_GET_ITEM(cols, c))
                || PyList_GET_SIZE(PyTuple_GET_ITEM(cols, c))
                   != PyList_GET_SIZE(PyTuple_GET_ITEM(cols, 0)))
            Py_RETURN_NONE;
    int usual = readable(actions, records, placed, on_action);
    if (usual <= 0)
        return usual < 0 ? NULL : Py_NewRef(Py_None);

    Py_ssize_t n = PyList_GET_SIZE(actions), j = 0, k = 0;
    Py_ssize_t start = PyList_GET_SIZE(PyTuple_GET_ITEM(cols, 0));
    Py_ssize_t start_lines = PyList_GET_SIZE(lines);
    long rolls = 0;
    Cells c = {{NULL}};
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyList_GET_ITEM(actions, i), *rec = NULL, *ids = NULL, *line = NULL;
        int cls = class_of(a), failed;
        /* (readable() checked the shapes; the callbacks below run Python code:
         * what they could change is checked again where it is read) */
        if (j < PyList_GET_SIZE(records)) {
            PyObject *r = PyList_GET_ITEM(records, j);
            if (record_readable(r) && SLOT(r, off_rec[R_ACTION]) == a) {
                rec = Py_NewRef(r);
                j++;
                if (k < PyList_GET_SIZE(placed)) {
                    PyObject *pair = PyList_GET_ITEM(placed, k);
                    if (PyTuple_CheckExact(pair) && PyTuple_GET_SIZE(pair) == 2
                            && PyTuple_GET_ITEM(pair, 0) == r) {
                        ids = Py_NewRef(PyTuple_GET_ITEM(pair, 1));
                        k++;
                    }
                }
            }
        }
        failed = cls < 0 ? (PyErr_SetString(PyExc_RuntimeError, "an action changed while its "
                                            "rows were made"), -1)
                         : action_cells(&c, &line, a, cls, i + 1, rec, ids, args, &rolls);
        Py_XDECREF(rec);
        Py_XDECREF(ids);
        for (int col = 0; !failed && col < CELLS; col++)
            failed = PyList_Append(PyTuple_GET_ITEM(cols, col),
                                   c.v[col] == NULL ? Py_None : c.v[col]);
        if (!failed && line != NULL)
            failed = PyList_Append(lines, line);
        Py_XDECREF(line);
        cells_clear(&c);
        if (failed) {
            /* nothing of the game is left half made */
            for (int col = 0; col < CELLS; col++) {
                PyObject *list = PyTuple_GET_ITEM(cols, col);
                PyList_SetSlice(list, start, PyList_GET_SIZE(list), NULL);
            }
            PyList_SetSlice(lines, start_lines, PyList_GET_SIZE(lines), NULL);
            return NULL;
        }
    }
    return PyLong_FromLong(rolls);
}


static PyObject *
bind(PyObject *module, PyObject *args)
{
    static const char *const record_slots[6] = {"action", "turn", "position", "cube",
                                                "cube_owner", "steps"};
    PyObject *given[CLASSES], *record, *position, *text;
    Py_ssize_t rec[6];
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!O!O!O!:bind", &PyType_Type, &given[0],
                          &PyType_Type, &given[1], &PyType_Type, &given[2], &PyType_Type,
                          &given[3], &PyType_Type, &given[4], &PyType_Type, &given[5],
                          &PyType_Type, &given[6], &PyType_Type, &text, &PyType_Type, &record,
                          &PyType_Type, &position))
        return NULL;
    for (int k = 0; k < CLASSES; k++)
        for (int l = 0; l < k; l++)
            if (given[k] == given[l]) {
                PyErr_SetString(PyExc_TypeError, "the seven classes must be seven");
                return NULL;
            }
    /* the Action slots every class shares (one layout: one offset each) */
    Py_ssize_t player, move, analysis;
    for (int k = 0; k < CLASSES; k++) {
        Py_ssize_t p, mv, an;
        if (slot_offset(given[k], "player", &p) < 0 || slot_offset(given[k], "move_number", &mv) < 0
                || slot_offset(given[k], "analysis", &an) < 0)
            return NULL;
        if (k && (p != player || mv != move || an != analysis)) {
            PyErr_SetString(PyExc_TypeError, "the actions' classes must share Action's slots");
            return NULL;
        }
        player = p;
        move = mv;
        analysis = an;
    }
    Py_ssize_t play_dice, moves, written, dance_dice, dance_written, kind, value, win_points,
        loss_points, me, opp, display;
    if (slot_offset(given[PLAY], "dice", &play_dice) < 0
            || slot_offset(given[PLAY], "_moves", &moves) < 0
            || slot_offset(given[PLAY], "_written", &written) < 0
            || slot_offset(given[DANCE], "dice", &dance_dice) < 0
            || slot_offset(given[DANCE], "written", &dance_written) < 0
            || slot_offset(given[DOUBLE], "kind", &kind) < 0
            || slot_offset(given[DOUBLE], "value", &value) < 0
            || slot_offset(given[WIN], "points", &win_points) < 0
            || slot_offset(given[LOSS], "points", &loss_points) < 0
            || slot_offset(text, "display", &display) < 0
            || slot_offset(position, "me", &me) < 0 || slot_offset(position, "opp", &opp) < 0)
        return NULL;
    for (int k = 0; k < 6; k++)
        if (slot_offset(record, record_slots[k], &rec[k]) < 0)
            return NULL;
    for (int k = 0; k < CLASSES; k++) {
        Py_INCREF(given[k]);
        Py_XSETREF(classes[k], (PyTypeObject *)given[k]);
    }
    Py_INCREF(text);
    Py_INCREF(record);
    Py_INCREF(position);
    Py_XSETREF(text_type, (PyTypeObject *)text);
    Py_XSETREF(record_type, (PyTypeObject *)record);
    Py_XSETREF(position_type, (PyTypeObject *)position);
    off_player = player;
    off_move_number = move;
    off_analysis = analysis;
    off_play_dice = play_dice;
    off_moves = moves;
    off_written = written;
    off_dance_dice = dance_dice;
    off_dance_written = dance_written;
    off_kind = kind;
    off_value = value;
    off_win_points = win_points;
    off_loss_points = loss_points;
    off_display = display;
    off_me = me;
    off_opp = opp;
    memcpy(off_rec, rec, sizeof rec);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_VARARGS,
     "bind(Play, Dance, Double, Take, Drop, Win, Loss, PlayText, ActionRecord, Position): "
     "the classes game_cells() reads."},
    {"game_cells", (PyCFunction)(void (*)(void))game_cells, METH_FASTCALL,
     "game_cells(actions, records, placed, on_action, cols, lines, step_texts, "
     "step_texts_of, facts, facts_reference) -> the game's rolls, or None: left to Python."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_action_cells",
    "The actions table's rows of a game in C (optional; rows.py's loop is the reference).",
    -1, methods,
};

PyMODINIT_FUNC
PyInit__action_cells(void)
{
    static const KernelName names[] = {
        {&s_play_text, "play_text"}, {&s_text, "text"}, {&w_roll, "roll"}, {&w_take, "take"},
        {&w_drop, "drop"}, {&w_win, "win"}, {&w_loss, "loss"}, {&w_xgid, "XGID="},
        {&w_empty, ""},
    };
    if (KERNEL_INTERN(names) < 0)
        return NULL;
    if ((one = PyLong_FromLong(1)) == NULL || (zero = PyLong_FromLong(0)) == NULL)
        return NULL;
    return PyModule_Create(&module_def);
}

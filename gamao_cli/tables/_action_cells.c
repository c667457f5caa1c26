/* The actions table's rows of one game in C: an optional speed-up of the
 * loop over a game's actions in match_rows (gamao_cli/tables/rows.py,
 * _game_cells), which every exported action goes through.
 *
 * The Python code is the reference and the fallback: without this module
 * (no compiler at `pip install .`, or GAMAO_PURE_PYTHON=1) the rows are
 * made in Python, and tests/test_action_cells_kernel.py makes the rows of
 * every match of the corpus both ways and compares them.
 *
 * bind(Play, Dance, Double, Take, Drop, Win, Loss) must be called once
 * first: the classes of the actions it makes rows of.
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

enum { PLAY, DANCE, DOUBLE, TAKE, DROP, WIN, LOSS, CLASSES };
/* the values an action has in the actions table's columns (rows.py, ACTION_CELLS) */
#define CELLS 18

static PyTypeObject *classes[CLASSES];
static PyObject *s_analysis, *s_dice, *s_player, *s_move_number, *s_written, *s_kind,
    *s_value, *s_points, *s_play_text, *s_text, *s_action, *s_turn, *s_position, *s_cube,
    *s_cube_owner, *s_steps, *s_me, *s_opp, *w_roll, *w_take, *w_drop, *w_win, *w_loss,
    *w_xgid, *w_empty, *one, *zero;

static int
class_of(PyObject *a)
{
    for (int k = 0; k < CLASSES; k++)
        if (Py_TYPE(a) == classes[k])
            return k;
    return -1;
}

/* An exact int that fits a long: 1 and *v, else 0 (no error left set). */
static int
exact_long(PyObject *o, long *v)
{
    int overflow;
    if (o == NULL || !PyLong_CheckExact(o))
        return 0;
    *v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || (*v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* An attribute that must be there: a new reference, or NULL with an error. */
#define ATTR(o, name) PyObject_GetAttr((o), (name))

/* Whether the kernel makes the rows of this game: 1, 0 (Python makes them),
 * -1 with an error set. */
static int
readable(PyObject *actions, PyObject *records, PyObject *placed, PyObject *on_action)
{
    Py_ssize_t n = PyList_GET_SIZE(actions), nr = PyList_GET_SIZE(records);
    Py_ssize_t np = PyList_GET_SIZE(placed), j = 0, k = 0;
    int ok = 1;
    for (Py_ssize_t i = 0; i < n && ok; i++) {
        PyObject *a = PyList_GET_ITEM(actions, i), *v;
        long x;
        int cls = class_of(a);
        if (cls < 0)
            return 0;
        v = ATTR(a, s_analysis);
        if (v == NULL) {   /* getattr(a, "analysis", None) */
            if (!PyErr_ExceptionMatches(PyExc_AttributeError))
                return -1;
            PyErr_Clear();
            v = Py_NewRef(Py_None);
        }
        ok = v == Py_None;
        Py_DECREF(v);
        v = ATTR(a, s_player);
        if (v == NULL)
            return -1;
        ok = ok && exact_long(v, &x);
        Py_DECREF(v);
        if (ok && (cls == PLAY || cls == DANCE)) {
            v = ATTR(a, s_dice);
            if (v == NULL)
                return -1;
            ok = PyTuple_CheckExact(v) && PyTuple_GET_SIZE(v) == 2
                && exact_long(PyTuple_GET_ITEM(v, 0), &x) && exact_long(PyTuple_GET_ITEM(v, 1), &x);
            Py_DECREF(v);
        }
        if (ok && PyDict_GET_SIZE(on_action)) {
            PyObject *key = PyLong_FromVoidPtr(a);
            if (key == NULL)
                return -1;
            int has = PyDict_Contains(on_action, key);
            Py_DECREF(key);
            if (has < 0)
                return -1;
            ok = !has;
        }
        /* the records, in the actions' order, one at most an action */
        if (ok && j < nr) {
            PyObject *r = PyList_GET_ITEM(records, j), *ra = ATTR(r, s_action);
            if (ra == NULL)
                return -1;
            int mine = ra == a;
            Py_DECREF(ra);
            if (mine) {
                if (k < np) {
                    PyObject *pair = PyList_GET_ITEM(placed, k);
                    if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2)
                        return 0;
                    if (PyTuple_GET_ITEM(pair, 0) == r)
                        k++;
                }
                j++;
            }
        }
    }
    return ok && j == nr && k == np;
}

/* `o`'s attribute `name` into *out (a new reference): 0, or -1 with an error. */
static int
get(PyObject *o, PyObject *name, PyObject **out)
{
    *out = PyObject_GetAttr(o, name);
    return *out == NULL ? -1 : 0;
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
    PyObject *cols = args[4], *lines = args[5], *step_texts = args[6];
    PyObject *step_texts_of = args[7], *facts = args[8], *facts_reference = args[9];
    if (classes[0] == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_action_cells.bind(...) first");
        return NULL;
    }
    if (!PyList_CheckExact(actions) || !PyList_CheckExact(records) || !PyList_CheckExact(placed)
            || !PyDict_CheckExact(on_action) || !PyList_CheckExact(lines)
            || !PyDict_CheckExact(step_texts) || !PyTuple_CheckExact(cols)
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
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyList_GET_ITEM(actions, i);
        PyObject *rec = NULL, *ids = NULL;
        PyObject *move = NULL, *player = NULL, *kind = NULL, *die1 = NULL, *die2 = NULL;
        PyObject *play = NULL, *written = NULL, *points = NULL, *line = NULL;
        PyObject *cube = NULL, *owner = NULL, *pid = NULL, *mid = NULL, *xg = NULL;
        PyObject *pips0 = NULL, *pips1 = NULL, *legal = NULL, *seq = NULL;
        long who;
        int cls = class_of(a), checked = 0;
        if (cls < 0 || get(a, s_player, &player) < 0 || get(a, s_move_number, &move) < 0
                || !exact_long(player, &who))
            goto fail;   /* (changed since readable(): refused) */
        if (j < PyList_GET_SIZE(records)) {
            PyObject *r = PyList_GET_ITEM(records, j), *ra;
            if (get(r, s_action, &ra) < 0)
                goto fail;
            if (ra == a) {
                rec = Py_NewRef(r);
                j++;
                if (k < PyList_GET_SIZE(placed)
                        && PyTuple_GET_ITEM(PyList_GET_ITEM(placed, k), 0) == r) {
                    ids = Py_NewRef(PyTuple_GET_ITEM(PyList_GET_ITEM(placed, k), 1));
                    k++;
                }
            }
            Py_DECREF(ra);
        }
        if (cls == PLAY || cls == DANCE) {
            PyObject *dice;
            long d1, d2;
            rolls++;
            kind = Py_NewRef(w_roll);
            if (get(a, s_dice, &dice) < 0)
                goto fail;
            if (!PyTuple_CheckExact(dice) || PyTuple_GET_SIZE(dice) != 2
                    || !exact_long(PyTuple_GET_ITEM(dice, 0), &d1)
                    || !exact_long(PyTuple_GET_ITEM(dice, 1), &d2)) {
                Py_DECREF(dice);
                PyErr_SetString(PyExc_RuntimeError, "an action changed while its rows were made");
                goto fail;
            }
            die1 = Py_NewRef(PyTuple_GET_ITEM(dice, d1 >= d2 ? 0 : 1));
            die2 = Py_NewRef(PyTuple_GET_ITEM(dice, d1 >= d2 ? 1 : 0));
            Py_DECREF(dice);
            if (d1 < d2) {
                long t = d1;
                d1 = d2;
                d2 = t;
            }
            if (cls == PLAY) {
                PyObject *steps = NULL, *fixed = NULL;
                written = PyObject_CallMethodNoArgs(a, s_play_text);
                if (written == NULL)
                    goto fail;
                if (rec != NULL && get(rec, s_steps, &steps) < 0)
                    goto fail;
                if (steps != NULL && steps != Py_None) {
                    PyObject *texts = NULL;
                    if (PyTuple_CheckExact(steps)) {
                        texts = PyDict_GetItemWithError(step_texts, steps);
                        if (texts == NULL && PyErr_Occurred()) {
                            Py_DECREF(steps);
                            goto fail;
                        }
                        Py_XINCREF(texts);
                    }
                    if (texts == NULL) {
                        PyObject *t = PySequence_Tuple(steps);
                        texts = t == NULL ? NULL : PyObject_CallOneArg(step_texts_of, t);
                        Py_XDECREF(t);
                    }
                    if (texts == NULL || !PyTuple_CheckExact(texts) || PyTuple_GET_SIZE(texts) != 2) {
                        if (texts != NULL)
                            PyErr_SetString(PyExc_TypeError, "step texts are not a pair");
                        Py_XDECREF(texts);
                        Py_DECREF(steps);
                        goto fail;
                    }
                    play = Py_NewRef(PyTuple_GET_ITEM(texts, 0));
                    int empty = PyObject_Not(steps);
                    fixed = Py_NewRef(empty > 0 ? written : PyTuple_GET_ITEM(texts, 1));
                    Py_DECREF(texts);
                    if (empty < 0) {
                        Py_DECREF(steps);
                        Py_DECREF(fixed);
                        goto fail;
                    }
                }
                else
                    fixed = Py_NewRef(written);
                Py_XDECREF(steps);
                line = PyUnicode_FromFormat("%ld roll %ld%ld %S", who, d1, d2, fixed);
                Py_DECREF(fixed);
            }
            else {
                if (get(a, s_written, &written) < 0)
                    goto fail;
                if (rec != NULL) {
                    PyObject *pos;
                    if (get(rec, s_position, &pos) < 0)
                        goto fail;
                    if (pos != Py_None)
                        play = Py_NewRef(w_empty);
                    Py_DECREF(pos);
                }
                line = PyUnicode_FromFormat("%ld roll %ld%ld", who, d1, d2);
            }
        }
        else {
            if (cls == DOUBLE) {
                PyObject *value;
                if (get(a, s_kind, &kind) < 0 || get(a, s_value, &value) < 0)
                    goto fail;
                if (value != Py_None) {
                    written = PyObject_CallMethodNoArgs(a, s_text);
                    if (written == NULL) {
                        Py_DECREF(value);
                        goto fail;
                    }
                }
                Py_DECREF(value);
                line = PyUnicode_FromFormat("%ld %S", who, kind);
            }
            else if (cls == WIN || cls == LOSS) {
                kind = Py_NewRef(cls == WIN ? w_win : w_loss);
                if (get(a, s_points, &points) < 0)
                    goto fail;
                if (cls == WIN) {
                    PyObject *shown = PyObject_Format(points, NULL);
                    line = shown == NULL ? NULL : PyUnicode_FromFormat("%ld win %U", who, shown);
                    Py_XDECREF(shown);
                }
            }
            else {
                kind = Py_NewRef(cls == TAKE ? w_take : w_drop);
                line = PyUnicode_FromFormat("%ld %U", who, kind);
            }
        }
        if (cls != LOSS) {
            if (line == NULL || PyList_Append(lines, line) < 0)
                goto fail;
        }
        if (rec != NULL) {
            PyObject *pos, *turn;
            if (get(rec, s_cube, &cube) < 0 || get(rec, s_cube_owner, &owner) < 0)
                goto fail;
            if (get(rec, s_position, &pos) < 0)
                goto fail;
            if (get(rec, s_turn, &turn) < 0) {
                Py_DECREF(pos);
                goto fail;
            }
            if (pos != Py_None && turn != Py_None) {
                PyObject *me = NULL, *opp = NULL, *found = NULL;
                int bottom = PyObject_RichCompareBool(turn, one, Py_EQ);
                int first = PyObject_RichCompareBool(turn, zero, Py_EQ);
                if (bottom >= 0 && first >= 0 && get(pos, s_me, &me) == 0
                        && get(pos, s_opp, &opp) == 0) {
                    PyObject *fargs[3] = {me, opp, bottom ? Py_True : Py_False};
                    found = PyObject_Vectorcall(facts, fargs, 3, NULL);
                    if (found == Py_None) {   /* the kernel's no: the reference says */
                        Py_DECREF(found);
                        found = PyObject_Vectorcall(facts_reference, fargs, 3, NULL);
                    }
                }
                Py_XDECREF(me);
                Py_XDECREF(opp);
                Py_DECREF(pos);
                Py_DECREF(turn);
                if (found == NULL)
                    goto fail;
                if (!PyTuple_CheckExact(found) || PyTuple_GET_SIZE(found) != 4) {
                    Py_DECREF(found);
                    PyErr_SetString(PyExc_TypeError, "board facts are not four");
                    goto fail;
                }
                PyObject *field = PyTuple_GET_ITEM(found, 1);
                pid = PyTuple_GET_ITEM(found, 0);
                if (ids != NULL && pid != Py_None) {
                    PyObject *state = PyTuple_Check(ids) && PyTuple_GET_SIZE(ids) >= 1
                        ? PyTuple_GET_ITEM(ids, 0) : NULL;
                    if (state == NULL || !PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 2) {
                        Py_DECREF(found);
                        PyErr_SetString(PyExc_TypeError, "a state's IDs are not a pair");
                        goto fail;
                    }
                    Py_INCREF(pid);
                    mid = Py_NewRef(PyTuple_GET_ITEM(state, 0));
                    xg = PyUnicode_Concat(w_xgid, field);
                    if (xg != NULL)
                        Py_SETREF(xg, PyUnicode_Concat(xg, PyTuple_GET_ITEM(state, 1)));
                    if (xg == NULL) {
                        Py_DECREF(found);
                        goto fail;
                    }
                }
                else
                    pid = NULL;   /* no state, or a position no ID holds */
                pips0 = Py_NewRef(PyTuple_GET_ITEM(found, first ? 2 : 3));
                pips1 = Py_NewRef(PyTuple_GET_ITEM(found, first ? 3 : 2));
                Py_DECREF(found);
                checked = 1;
            }
            else {
                Py_DECREF(pos);
                Py_DECREF(turn);
                checked = cls == WIN || cls == LOSS;
            }
        }
        legal = checked ? Py_True : Py_None;
        seq = PyLong_FromSsize_t(i + 1);
        if (seq == NULL)
            goto fail;
        {
            PyObject *values[CELLS] = {seq, move, player, kind, die1, die2, play, written,
                                       points, cube, owner, pid, mid, xg, pips0, pips1, legal,
                                       NULL};
            for (int c = 0; c < CELLS; c++)
                if (PyList_Append(PyTuple_GET_ITEM(cols, c),
                                  values[c] == NULL ? Py_None : values[c]) < 0)
                    goto fail;
        }
        Py_CLEAR(seq);
        Py_XDECREF(rec);
        Py_XDECREF(ids);
        Py_XDECREF(move);
        Py_XDECREF(player);
        Py_XDECREF(kind);
        Py_XDECREF(die1);
        Py_XDECREF(die2);
        Py_XDECREF(play);
        Py_XDECREF(written);
        Py_XDECREF(points);
        Py_XDECREF(line);
        Py_XDECREF(cube);
        Py_XDECREF(owner);
        Py_XDECREF(pid);
        Py_XDECREF(mid);
        Py_XDECREF(xg);
        Py_XDECREF(pips0);
        Py_XDECREF(pips1);
        continue;
    fail:
        Py_XDECREF(seq);
        Py_XDECREF(rec);
        Py_XDECREF(ids);
        Py_XDECREF(move);
        Py_XDECREF(player);
        Py_XDECREF(kind);
        Py_XDECREF(die1);
        Py_XDECREF(die2);
        Py_XDECREF(play);
        Py_XDECREF(written);
        Py_XDECREF(points);
        Py_XDECREF(line);
        Py_XDECREF(cube);
        Py_XDECREF(owner);
        Py_XDECREF(pid);
        Py_XDECREF(mid);
        Py_XDECREF(xg);
        Py_XDECREF(pips0);
        Py_XDECREF(pips1);
        /* nothing of the game is left half made */
        for (int c = 0; c < CELLS; c++) {
            PyObject *col = PyTuple_GET_ITEM(cols, c);
            PyList_SetSlice(col, start, PyList_GET_SIZE(col), NULL);
        }
        PyList_SetSlice(lines, start_lines, PyList_GET_SIZE(lines), NULL);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "an action changed while its rows were made");
        return NULL;
    }
    return PyLong_FromLong(rolls);
}

static PyObject *
bind(PyObject *module, PyObject *args)
{
    PyObject *given[CLASSES];
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!:bind", &PyType_Type, &given[0], &PyType_Type,
                          &given[1], &PyType_Type, &given[2], &PyType_Type, &given[3],
                          &PyType_Type, &given[4], &PyType_Type, &given[5], &PyType_Type,
                          &given[6]))
        return NULL;
    for (int k = 0; k < CLASSES; k++)
        for (int l = 0; l < k; l++)
            if (given[k] == given[l]) {
                PyErr_SetString(PyExc_TypeError, "the seven classes must be seven");
                return NULL;
            }
    for (int k = 0; k < CLASSES; k++) {
        Py_INCREF(given[k]);
        Py_XSETREF(classes[k], (PyTypeObject *)given[k]);
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_VARARGS,
     "bind(Play, Dance, Double, Take, Drop, Win, Loss): the classes game_cells() reads."},
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
    struct { PyObject **slot; const char *text; } names[] = {
        {&s_analysis, "analysis"}, {&s_dice, "dice"}, {&s_player, "player"},
        {&s_move_number, "move_number"}, {&s_written, "written"}, {&s_kind, "kind"},
        {&s_value, "value"}, {&s_points, "points"}, {&s_play_text, "play_text"},
        {&s_text, "text"}, {&s_action, "action"}, {&s_turn, "turn"},
        {&s_position, "position"}, {&s_cube, "cube"}, {&s_cube_owner, "cube_owner"},
        {&s_steps, "steps"}, {&s_me, "me"}, {&s_opp, "opp"}, {&w_roll, "roll"},
        {&w_take, "take"}, {&w_drop, "drop"}, {&w_win, "win"}, {&w_loss, "loss"},
        {&w_xgid, "XGID="}, {&w_empty, ""},
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if ((*names[k].slot = PyUnicode_InternFromString(names[k].text)) == NULL)
            return NULL;
    if ((one = PyLong_FromLong(1)) == NULL || (zero = PyLong_FromLong(0)) == NULL)
        return NULL;
    return PyModule_Create(&module_def);
}

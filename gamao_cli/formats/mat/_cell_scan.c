/* _cell_scan: the C twin of the common case of MatchFileBuilder._runs
 * (gamao_cli/formats/mat/reader.py), an optional speed-up.
 *
 * The Python code is the reference and the fallback: without this module
 * (no compiler at install time, or GAMAO_PURE_PYTHON set) the reader runs
 * its own loop over the line splitter's matches, and the tests compare the
 * two on the whole corpus and on random move text.
 *
 * scan() starts where the line splitter's next match would start and
 * consumes, one after another, the matches it can prove the splitter would
 * make: the splitter's highest-priority path, that is an optional run of
 * line breaks and indentation, an optional move number "N)", the gap, an
 * optional repeated move number "N) " (Backgammon Galaxy), then a ROLL_PLAY
 * cell (the grammar's terminal: "DD:", blanks, steps of points "24", "bar",
 * "off" with hit marks "*", "/" between points, an optional repeat "(2)").
 * It reproduces the match Python's backtracking engine returns: every
 * choice point before the cell takes its first option, and inside the cell
 * each point is taken greedily (a shorter point never lets the cell go on),
 * each loop goes on while one more iteration matches whole. For each such
 * cell it appends the Play that Play.from_text would make (the same
 * attribute values, written into the same slots), with the line, column,
 * move number and side the Python loop gives it, looking the cell up in the
 * reader's cache dict and calling the reader's _roll_play_info on a miss.
 * It also takes a dance written "DD:" alone (ROLL), when it can tell that
 * none of the cells tried before ROLL matches there, and makes its Dance as
 * the Python loop does (calling the class).
 *
 * It stops, without consuming, at anything else, and the Python loop does
 * that one match with the regular expression: other cell kinds (Doubles,
 * Takes, Wins, "66: Cannot Move"...), a line break alone, junk, a move number
 * of more than 18 digits, and any match whose path looks at a character
 * beyond ASCII (\d matches other digits too).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

/* the slots of Play that Play.from_text sets, in its order */
enum {
    S_PLAYER, S_LINE, S_COLUMN, S_MOVE_NUMBER, S_STATED, S_ANALYSIS, S_DICE,
    S_MOVES, S_SHAPE, S_WRITTEN, S_AT, N_SLOTS
};
static const char *slot_names[N_SLOTS] = {
    "player", "line", "column", "move_number", "stated", "analysis", "dice",
    "_moves", "shape", "_written", "_at",
};
static Py_ssize_t slot_offsets[N_SLOTS];
static PyTypeObject *play_type = NULL;
static PyObject *dance_type = NULL;     /* Dance, called as the Python loop calls it */
static PyObject *dance_kwnames = NULL;  /* ("dice", "written", "line", "column", "move_number") */
static PyObject *empty_str = NULL;
static PyObject *empty_tuple = NULL;

/* mirrors reader.LONE_CELL_RIGHT_COLUMN and reader.RIGHT_GAP_WIDTH (setup) */
static Py_ssize_t lone_cell_right_column = 25;
static Py_ssize_t right_gap_width = 6;

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n;
    int beyond_ascii;   /* a character beyond ASCII was looked at */
} Text;

/* The character at i, or 0 past the end; a character beyond ASCII reads as
 * 0 (matches nothing here) and marks the text, so that the match is left
 * to the regular expression. */
static inline Py_UCS4
at(Text *t, Py_ssize_t i)
{
    Py_UCS4 c;
    if (i >= t->n)
        return 0;
    c = PyUnicode_READ(t->kind, t->data, i);
    if (c >= 0x80) {
        t->beyond_ascii = 1;
        return 0;
    }
    return c;
}

#define IS_DIGIT(c) ((c) >= '0' && (c) <= '9')
#define IS_BLANK(c) ((c) == ' ' || (c) == '\t')

/* The end of a point word whose first letter is at i: i + 3 when the two
 * letters after it are `second` and `third` in either case (B-ar, O-ff),
 * else i + 1 (the letter alone: B, O). `second` and `third` are lower case;
 * `| 0x20` maps only the upper-case letter onto its lower case here, and a
 * character beyond ASCII reads as 0, which matches neither. */
static Py_ssize_t
point_word(Text *t, Py_ssize_t i, Py_UCS4 second, Py_UCS4 third)
{
    if ((at(t, i + 1) | 0x20) == second && (at(t, i + 2) | 0x20) == third)
        return i + 3;
    return i + 1;
}

/* _POINT: \d{1,3}|[Bb](?:[Aa][Rr])?|[Oo](?:[Ff][Ff])? at i: its end, or -1 */
static Py_ssize_t
point(Text *t, Py_ssize_t i)
{
    Py_UCS4 c = at(t, i);
    if (IS_DIGIT(c)) {
        if (!IS_DIGIT(at(t, i + 1)))
            return i + 1;
        return IS_DIGIT(at(t, i + 2)) ? i + 3 : i + 2;
    }
    if (c == 'B' || c == 'b')
        return point_word(t, i, 'a', 'r');
    if (c == 'O' || c == 'o')
        return point_word(t, i, 'f', 'f');
    return -1;
}

/* _STEP: _POINT \*? (?:/ _POINT \*?)+ (?:\(\d+\))? at i: its end, or -1.
 * (Giving back a digit or a letter of a point would leave a digit or a
 * letter where "*", "/" or the end of the step must come: never a match.) */
static Py_ssize_t
step(Text *t, Py_ssize_t i)
{
    Py_ssize_t j = point(t, i), k;
    int legs = 0;
    if (j < 0)
        return -1;
    if (at(t, j) == '*')
        j++;
    while (at(t, j) == '/' && (k = point(t, j + 1)) >= 0) {
        j = k;
        if (at(t, j) == '*')
            j++;
        legs++;
    }
    if (!legs)
        return -1;
    if (at(t, j) == '(' && IS_DIGIT(at(t, j + 1))) {
        k = j + 2;
        while (IS_DIGIT(at(t, k)))
            k++;
        if (at(t, k) == ')')
            j = k + 1;
    }
    return j;
}

/* ROLL_PLAY: [0-9]{2}: [ \t]+ _STEP (?:[ \t] _STEP)* at i: its end, or -1.
 * (The blanks after the colon are followed by a step, which cannot start
 * with a blank: giving one back never helps.) */
static Py_ssize_t
roll_play(Text *t, Py_ssize_t i)
{
    Py_ssize_t j, k;
    if (!IS_DIGIT(at(t, i)) || !IS_DIGIT(at(t, i + 1)) || at(t, i + 2) != ':')
        return -1;
    j = i + 3;
    if (!IS_BLANK(at(t, j)))
        return -1;
    while (IS_BLANK(at(t, j)))
        j++;
    j = step(t, j);
    if (j < 0)
        return -1;
    while (IS_BLANK(at(t, j)) && (k = step(t, j + 1)) >= 0)
        j = k;
    return j;
}

/* ROLL: [0-9]{2}: at i, when ROLL_PLAY failed there and the cells tried
 * before ROLL cannot match: ROLL_CANNOT, ROLL_UNKNOWN and ROLL_ILLEGAL all
 * need blanks after the colon and then "Cannot", "????", "Concedes",
 * "Resigns" or "Illegal" (any case): so the first character after the
 * blanks (if any) must not be one of ?CcRrIi (nothing beyond ASCII folds
 * to them: such a character declines anyway). The end of the cell, or -1. */
static Py_ssize_t
roll(Text *t, Py_ssize_t i)
{
    Py_ssize_t j;
    Py_UCS4 c;
    if (!IS_DIGIT(at(t, i)) || !IS_DIGIT(at(t, i + 1)) || at(t, i + 2) != ':')
        return -1;
    j = i + 3;
    while (IS_BLANK(at(t, j)))
        j++;
    c = at(t, j);
    if (c == '?' || c == 'C' || c == 'c' || c == 'R' || c == 'r' || c == 'I' || c == 'i')
        return -1;
    return i + 3;
}

static PyObject *
new_play(Py_ssize_t player, PyObject *dice, PyObject *written, Py_ssize_t text_column,
         Py_ssize_t line, Py_ssize_t column, PyObject *number)
{
    PyObject *values[N_SLOTS];
    PyObject *p;
    int i;

    p = PyBaseObject_Type.tp_new(play_type, empty_tuple, NULL);  /* object.__new__(Play) */
    if (p == NULL)
        return NULL;
    values[S_PLAYER] = PyLong_FromSsize_t(player);
    values[S_LINE] = PyLong_FromSsize_t(line);
    values[S_COLUMN] = PyLong_FromSsize_t(column);
    values[S_AT] = PyLong_FromSsize_t(text_column);
    values[S_MOVE_NUMBER] = Py_NewRef(number);
    values[S_STATED] = Py_NewRef(Py_None);
    values[S_ANALYSIS] = Py_NewRef(Py_None);
    values[S_DICE] = Py_NewRef(dice);
    values[S_MOVES] = Py_NewRef(Py_None);
    values[S_SHAPE] = Py_NewRef(Py_None);
    values[S_WRITTEN] = Py_NewRef(written);
    for (i = 0; i < N_SLOTS; i++) {
        PyObject **slot = (PyObject **)((char *)p + slot_offsets[i]);
        Py_XSETREF(*slot, values[i]);   /* NULL values (no memory) too: */
    }
    for (i = 0; i < N_SLOTS; i++) {
        if (values[i] == NULL) {         /* ... then the play is dropped */
            Py_DECREF(p);
            return NULL;
        }
    }
    return p;
}

PyDoc_STRVAR(setup_doc,
"setup(play_class, dance_class, lone_cell_right_column, right_gap_width) -> bool\n\n"
"Remember the classes of plays and dances and the reader's two layout\n"
"constants. False\n"
"(and the kernel must go unused) when the class is not as scan() expects:\n"
"plain slots for what Play.from_text sets, object's __new__ and __setattr__.");

static PyObject *
cell_scan_setup(PyObject *self, PyObject *args)
{
    PyObject *cls, *dance;
    Py_ssize_t lone, gap;
    Py_ssize_t offsets[N_SLOTS];
    PyTypeObject *type;
    int i;

    if (!PyArg_ParseTuple(args, "OOnn:setup", &cls, &dance, &lone, &gap))
        return NULL;
    if (!PyCallable_Check(dance))
        Py_RETURN_FALSE;
    if (!PyType_Check(cls))
        Py_RETURN_FALSE;
    type = (PyTypeObject *)cls;
    if (type->tp_new != PyBaseObject_Type.tp_new || type->tp_setattro != PyObject_GenericSetAttr
            || (type->tp_flags & Py_TPFLAGS_IS_ABSTRACT))
        Py_RETURN_FALSE;
    for (i = 0; i < N_SLOTS; i++) {
        PyObject *d = PyObject_GetAttrString(cls, slot_names[i]);
        PyMemberDef *member;
        int ok;
        if (d == NULL) {
            PyErr_Clear();
            Py_RETURN_FALSE;
        }
        ok = Py_IS_TYPE(d, &PyMemberDescr_Type)
             && PyType_IsSubtype(type, PyDescr_TYPE(d));
        if (ok) {
            member = ((PyMemberDescrObject *)d)->d_member;
            ok = member->type == T_OBJECT_EX && !(member->flags & READONLY);
            offsets[i] = member->offset;
        }
        Py_DECREF(d);
        if (!ok)
            Py_RETURN_FALSE;
    }
    if (empty_tuple == NULL) {
        empty_tuple = PyTuple_New(0);
        if (empty_tuple == NULL)
            return NULL;
    }
    if (dance_kwnames == NULL) {
        dance_kwnames = Py_BuildValue("(sssss)", "dice", "written", "line", "column",
                                      "move_number");
        if (dance_kwnames == NULL)
            return NULL;
    }
    if (empty_str == NULL) {
        empty_str = PyUnicode_New(0, 0);
        if (empty_str == NULL)
            return NULL;
    }
    Py_INCREF(dance);
    Py_XSETREF(dance_type, dance);
    memcpy(slot_offsets, offsets, sizeof offsets);
    Py_INCREF(cls);
    Py_XSETREF(play_type, type);
    lone_cell_right_column = lone;
    right_gap_width = gap;
    Py_RETURN_TRUE;
}

PyDoc_STRVAR(scan_doc,
"scan(text, pos, line, line_start, number, first, side, actions, plays, info)\n"
"-> (pos, line, line_start, number, first, side)\n\n"
"Consume the common matches of the reader's line splitter from pos (see the\n"
"module's header comment), appending their plays to actions, and return\n"
"where it stopped and the state of MatchFileBuilder._runs there. plays is\n"
"the cache dict of cells, info the function called on a miss.");

static PyObject *
cell_scan_scan(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *text, *number, *actions, *plays, *info_func, *result = NULL;
    Py_ssize_t pos, line, line_start, side;
    int first;
    Text t;

    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "scan() takes 10 arguments");
        return NULL;
    }
    if (play_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "scan() before setup()");
        return NULL;
    }
    text = args[0];
    actions = args[7];
    plays = args[8];
    info_func = args[9];
    if (!PyUnicode_Check(text) || !PyList_Check(actions) || !PyDict_Check(plays)) {
        PyErr_SetString(PyExc_TypeError, "scan() needs a str, a list and a dict");
        return NULL;
    }
    if (PyUnicode_READY(text) < 0)
        return NULL;
    pos = PyLong_AsSsize_t(args[1]);
    line = PyLong_AsSsize_t(args[2]);
    line_start = PyLong_AsSsize_t(args[3]);
    side = PyLong_AsSsize_t(args[6]);
    if (PyErr_Occurred())
        return NULL;
    first = PyObject_IsTrue(args[5]);
    if (first < 0)
        return NULL;
    number = Py_NewRef(args[4]);
    t.kind = PyUnicode_KIND(text);
    t.data = PyUnicode_DATA(text);
    t.n = PyUnicode_GET_LENGTH(text);

    while (pos >= 0 && pos < t.n) {
        Py_ssize_t p = pos, newline_end = -1, num_start = -1, num_end = -1;
        Py_ssize_t gap_start, gap_end, end, column, offset, d;
        PyObject *cell, *info, *play;
        int rc, is_dance;

        t.beyond_ascii = 0;
        /* (?:(?P<newline>(?:\n[ \t]*+)++)(?:(?P<number>\d+)\))?)? */
        if (at(&t, p) == '\n') {
            do {
                p++;
                while (IS_BLANK(at(&t, p)))
                    p++;
            } while (at(&t, p) == '\n');
            newline_end = p;
            if (IS_DIGIT(at(&t, p))) {
                d = p + 1;
                while (IS_DIGIT(at(&t, d)))
                    d++;
                if (at(&t, d) == ')') {
                    num_start = p;
                    num_end = d;
                    p = d + 1;
                }
            }
        }
        /* (?P<gap>[ \t]*+) */
        gap_start = p;
        while (IS_BLANK(at(&t, p)))
            p++;
        gap_end = p;
        /* (?:\d+\)[ \t]++)? */
        if (IS_DIGIT(at(&t, p))) {
            d = p + 1;
            while (IS_DIGIT(at(&t, d)))
                d++;
            if (at(&t, d) == ')' && IS_BLANK(at(&t, d + 1))) {
                d += 2;
                while (IS_BLANK(at(&t, d)))
                    d++;
                p = d;
            }
        }
        end = roll_play(&t, p);
        is_dance = 0;
        if (end < 0 && !t.beyond_ascii) {
            end = roll(&t, p);
            is_dance = 1;
        }
        if (end < 0 || t.beyond_ascii || (num_start >= 0 && num_end - num_start > 18))
            break;   /* the regular expression's to do */

        if (newline_end >= 0) {   /* the cell opens a line */
            Py_ssize_t i, last = pos;
            for (i = pos; i < newline_end; i++) {
                if (PyUnicode_READ(t.kind, t.data, i) == '\n') {
                    line++;
                    last = i;
                }
            }
            line_start = last + 1;
            if (num_start >= 0) {
                long long value = 0;
                for (i = num_start; i < num_end; i++)
                    value = value * 10 + (PyUnicode_READ(t.kind, t.data, i) - '0');
                Py_SETREF(number, PyLong_FromLongLong(value));
                if (number == NULL)
                    return NULL;
            }
            else {
                Py_SETREF(number, Py_NewRef(Py_None));
            }
            first = 1;
        }
        column = p - line_start + 1;
        if (first) {
            first = 0;
            if (number == Py_None)
                side = column < lone_cell_right_column ? 0 : 1;
            else
                side = gap_end - gap_start >= right_gap_width ? 1 : 0;
        }

        if (is_dance) {
            /* Dance(side & 1, dice=..., written="", line=, column=, move_number=)
             * (_roll_dance of "DD:": written is " ".join("".split())) */
            PyObject *call_args[6];
            int k;
            call_args[0] = PyLong_FromSsize_t(side & 1);
            call_args[1] = Py_BuildValue("(ii)", (int)PyUnicode_READ(t.kind, t.data, p) - '0',
                                         (int)PyUnicode_READ(t.kind, t.data, p + 1) - '0');
            call_args[2] = Py_NewRef(empty_str);
            call_args[3] = PyLong_FromSsize_t(line);
            call_args[4] = PyLong_FromSsize_t(column);
            call_args[5] = Py_NewRef(number);
            play = NULL;
            if (call_args[0] && call_args[1] && call_args[3] && call_args[4])
                play = PyObject_Vectorcall(dance_type, call_args, 1, dance_kwnames);
            for (k = 0; k < 6; k++)
                Py_XDECREF(call_args[k]);
            if (play == NULL)
                goto error;
            rc = PyList_Append(actions, play);
            Py_DECREF(play);
            if (rc < 0)
                goto error;
            side++;
            pos = end;
            continue;
        }
        cell = PyUnicode_Substring(text, p, end);
        if (cell == NULL)
            goto error;
        info = PyDict_GetItemWithError(plays, cell);
        if (info != NULL) {
            Py_INCREF(info);
        }
        else if (!PyErr_Occurred()) {
            PyObject *call_args[3] = {cell, NULL, NULL};
            call_args[1] = PyLong_FromSsize_t(line);
            call_args[2] = PyLong_FromSsize_t(column);
            if (call_args[1] != NULL && call_args[2] != NULL)
                info = PyObject_Vectorcall(info_func, call_args, 3, NULL);
            Py_XDECREF(call_args[1]);
            Py_XDECREF(call_args[2]);
        }
        Py_DECREF(cell);
        if (info == NULL)
            goto error;
        /* dice, offset, written = info */
        if (!PyTuple_CheckExact(info) || PyTuple_GET_SIZE(info) != 3) {
            Py_DECREF(info);
            PyErr_SetString(PyExc_TypeError, "a roll play's info must be a 3-tuple");
            goto error;
        }
        offset = PyLong_AsSsize_t(PyTuple_GET_ITEM(info, 1));
        if (offset == -1 && PyErr_Occurred()) {
            Py_DECREF(info);
            goto error;
        }
        play = new_play(side & 1, PyTuple_GET_ITEM(info, 0), PyTuple_GET_ITEM(info, 2),
                        column + offset, line, column, number);
        Py_DECREF(info);
        if (play == NULL)
            goto error;
        rc = PyList_Append(actions, play);
        Py_DECREF(play);
        if (rc < 0)
            goto error;
        side++;
        pos = end;
    }
    result = Py_BuildValue("(nnnOOn)", pos, line, line_start, number,
                           first ? Py_True : Py_False, side);
error:
    Py_DECREF(number);
    return result;
}

static PyMethodDef cell_scan_methods[] = {
    {"setup", (PyCFunction)cell_scan_setup, METH_VARARGS, setup_doc},
    {"scan", (PyCFunction)(void (*)(void))cell_scan_scan, METH_FASTCALL, scan_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef cell_scan_module = {
    PyModuleDef_HEAD_INIT, "_cell_scan",
    "The C twin of the common case of the match-file reader's _runs (optional;\n"
    "reader.py is the reference).", -1, cell_scan_methods,
};

PyMODINIT_FUNC
PyInit__cell_scan(void)
{
    return PyModule_Create(&cell_scan_module);
}

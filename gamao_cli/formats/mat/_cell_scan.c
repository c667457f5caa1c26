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
 * It takes too the other common cells, in the one spelling their producers
 * write, when the terminals tried before theirs cannot match there (each
 * is told apart by its first letter): "DD: Cannot Move" (ROLL_CANNOT),
 * "Double(s)" with or without " => N" (DOUBLE), "Take(s)", "Drop(s)",
 * "Wins N point(s)" with or without " and the match", "Loss(es) N
 * point(s)"; and the line breaks that end the text (`break`, when only
 * blanks and line breaks are left). It makes their actions as the Python
 * loop does, calling the class with the fields CELL_KINDS gives.
 *
 * It stops, without consuming, at anything else, and the Python loop does
 * that one match with the regular expression: other cell kinds and other
 * spellings (any other case, "Beavers", "Pass", "Resigns"...), a line break
 * with more after it, junk, a number of more than 18 digits, and any match
 * whose path looks at a character beyond ASCII (\d matches other digits,
 * and under IGNORECASE "ſ" matches "s").
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
/* the other kinds taken, each called as the Python loop calls it:
 * cls(player, **fields, line=, column=, move_number=) */
enum { K_DOUBLE, K_TAKE, K_DROP, K_WIN, K_LOSS, N_KINDS };
/* what the loop of scan() read */
enum { CELL_PLAY, CELL_CANNOT, CELL_DANCE, CELL_OTHER };
static PyObject *kind_types[N_KINDS];
static PyObject *kind_kwnames[N_KINDS];
static PyObject *cannot_move_str = NULL;   /* "Cannot Move": _roll_dance's written */
static PyObject *double_str = NULL;        /* "double": _double's kind */
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

#define IS_WORD(c) (IS_DIGIT(c) || (((c) | 0x20) >= 'a' && ((c) | 0x20) <= 'z') || (c) == '_')

/* The end of `word` written as is at i, or -1. */
static Py_ssize_t
literal(Text *t, Py_ssize_t i, const char *word)
{
    for (; *word; word++, i++)
        if (at(t, i) != (Py_UCS4)*word)
            return -1;
    return i;
}

/* The end of the run of ASCII digits at i (i when none); the value of at
 * most 18 of them in *value, or -1 in *value when there are more. */
static Py_ssize_t
digits(Text *t, Py_ssize_t i, long long *value)
{
    Py_ssize_t start = i;
    long long v = 0;
    while (IS_DIGIT(at(t, i))) {
        if (i - start < 18)
            v = v * 10 + (at(t, i) - '0');
        i++;
    }
    *value = i - start > 18 ? -1 : v;
    return i;
}

/* Blanks [ \t]+ at i: their end, or -1 when there is none. */
static Py_ssize_t
blanks(Text *t, Py_ssize_t i)
{
    Py_ssize_t j = i;
    while (IS_BLANK(at(t, j)))
        j++;
    return j > i ? j : -1;
}

/* (?!\w) at i, read in ASCII (a character beyond it marks the text) */
static inline int
word_ends(Text *t, Py_ssize_t i)
{
    Py_UCS4 c = at(t, i);
    return !IS_WORD(c);
}

/* "word" or "words" written as is at i: the end, or -1. */
static Py_ssize_t
word_or_words(Text *t, Py_ssize_t i, const char *word)
{
    Py_ssize_t j = literal(t, i, word);
    if (j >= 0 && at(t, j) == 's')
        j++;
    return j;
}

/* j when a word ends there ((?!\w)), else -1 (and -1 for -1). */
static inline Py_ssize_t
whole(Text *t, Py_ssize_t j)
{
    return j >= 0 && word_ends(t, j) ? j : -1;
}

/* ROLL_CANNOT, when ROLL_PLAY failed at i: "DD:" blanks "Cannot" blanks
 * "Move", this case only; its end, or -1. */
static Py_ssize_t
roll_cannot(Text *t, Py_ssize_t i)
{
    Py_ssize_t j;
    if (!IS_DIGIT(at(t, i)) || !IS_DIGIT(at(t, i + 1)) || at(t, i + 2) != ':')
        return -1;
    if ((j = blanks(t, i + 3)) < 0 || (j = literal(t, j, "Cannot")) < 0
            || (j = blanks(t, j)) < 0)
        return -1;
    return literal(t, j, "Move");
}

/* "point" or "points" at i, then (?!\w): the end, or -1. */
static Py_ssize_t
points_word(Text *t, Py_ssize_t i)
{
    return whole(t, word_or_words(t, i, "point"));
}

/* One of the cells other than a roll at i, its first letter telling which
 * terminal it can be (DOUBLE is tried before TAKE, DROP, WINS and LOSSES,
 * and none of those starts with the letter of another; the roll terminals
 * need a digit): its end, or -1 when it is not that kind's one spelling
 * (the regular expression may still match: the caller leaves it then).
 * *kind, *value (N, or -1 when absent) and *flag ("and the match") say what
 * was read. */
static Py_ssize_t
other_cell(Text *t, Py_ssize_t i, int *kind, long long *value, int *flag)
{
    Py_ssize_t j, k;
    Py_UCS4 c = at(t, i);
    *value = -1;
    *flag = 0;
    if (c == 'D' && at(t, i + 1) == 'o') {
        /* Doubles?(?:[ \t]*==?>[ \t]*\d+)?(?!\w) */
        *kind = K_DOUBLE;
        if ((j = word_or_words(t, i, "Double")) < 0)
            return -1;
        k = j;
        while (IS_BLANK(at(t, k)))
            k++;
        if (at(t, k) == '=') {
            k++;
            if (at(t, k) == '=')
                k++;
            if (at(t, k) != '>')
                return -1;
            k++;
            while (IS_BLANK(at(t, k)))
                k++;
            if (!IS_DIGIT(at(t, k)))
                return -1;
            k = digits(t, k, value);
            return *value < 0 ? -1 : whole(t, k);
        }
        /* no "=> N": only when nothing could start it (a blank could be
         * followed by one further on: left to the expression) */
        return k != j ? -1 : whole(t, j);
    }
    if (c == 'D') {   /* Drops?(?!\w) ("Dr": DOUBLE cannot match) */
        *kind = K_DROP;
        return whole(t, word_or_words(t, i, "Drop"));
    }
    if (c == 'T') {   /* Takes?(?!\w) */
        *kind = K_TAKE;
        return whole(t, word_or_words(t, i, "Take"));
    }
    if (c == 'W') {
        /* Wins[ \t]+\d+[ \t]+points?(?:[ \t]+and[ \t]+the[ \t]+match)?(?!\w) */
        *kind = K_WIN;
        if ((j = literal(t, i, "Wins")) < 0 || (j = blanks(t, j)) < 0 || !IS_DIGIT(at(t, j)))
            return -1;
        j = digits(t, j, value);
        if (*value < 0 || (j = blanks(t, j)) < 0 || (j = points_word(t, j)) < 0)
            return -1;
        if (!IS_BLANK(at(t, j)))
            return j;   /* (?!\w) held after "point(s)" */
        k = blanks(t, j);
        if ((at(t, k) | 0x20) != 'a')
            return j;   /* no "and" can follow: the group cannot match */
        if ((k = literal(t, k, "and")) < 0 || (k = blanks(t, k)) < 0
                || (k = literal(t, k, "the")) < 0 || (k = blanks(t, k)) < 0
                || (k = literal(t, k, "match")) < 0 || !word_ends(t, k))
            return -1;
        *flag = 1;
        return k;
    }
    if (c == 'L') {   /* Loss(?:es)?[ \t]+\d+[ \t]+points?(?!\w) */
        *kind = K_LOSS;
        if ((j = literal(t, i, "Loss")) < 0)
            return -1;
        if (at(t, j) == 'e' && at(t, j + 1) == 's')
            j += 2;
        if ((j = blanks(t, j)) < 0 || !IS_DIGIT(at(t, j)))
            return -1;
        j = digits(t, j, value);
        if (*value < 0 || (j = blanks(t, j)) < 0)
            return -1;
        return points_word(t, j);
    }
    return -1;
}

/* The line breaks of t[from:to]: *line counts them, *line_start is where
 * the line after the last begins (both as they were when there is none). */
static void
count_breaks(Text *t, Py_ssize_t from, Py_ssize_t to, Py_ssize_t *line,
             Py_ssize_t *line_start)
{
    for (Py_ssize_t i = from; i < to; i++) {
        if (PyUnicode_READ(t->kind, t->data, i) == '\n') {
            (*line)++;
            *line_start = i + 1;
        }
    }
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

/* cls(player, *fields, line=, column=, move_number=), the fields named
 * by kwnames before those three; steals the references of fields (NULL
 * ones mean no memory: nothing is called then). */
static PyObject *
new_action(PyObject *cls, PyObject *kwnames, Py_ssize_t player, PyObject **fields,
           int nfields, Py_ssize_t line, Py_ssize_t column, PyObject *number)
{
    PyObject *call_args[8];
    PyObject *action = NULL;
    int k, n = 0, ok = 1;

    call_args[n++] = PyLong_FromSsize_t(player);
    for (k = 0; k < nfields; k++)
        call_args[n++] = fields[k];
    call_args[n++] = PyLong_FromSsize_t(line);
    call_args[n++] = PyLong_FromSsize_t(column);
    call_args[n++] = Py_NewRef(number);
    for (k = 0; k < n; k++)
        ok = ok && call_args[k] != NULL;
    if (ok)
        action = PyObject_Vectorcall(cls, call_args, 1, kwnames);
    for (k = 0; k < n; k++)
        Py_XDECREF(call_args[k]);
    return action;
}

PyDoc_STRVAR(setup_doc,
"setup(play_class, dance_class, double_class, take_class, drop_class, win_class,\n"
"      loss_class, lone_cell_right_column, right_gap_width) -> bool\n\n"
"Remember the classes of the actions scan() makes and the reader's two\n"
"layout constants. False\n"
"(and the kernel must go unused) when the class is not as scan() expects:\n"
"plain slots for what Play.from_text sets, object's __new__ and __setattr__.");

static PyObject *
cell_scan_setup(PyObject *self, PyObject *args)
{
    PyObject *cls, *dance, *kinds[N_KINDS];
    Py_ssize_t lone, gap;
    Py_ssize_t offsets[N_SLOTS];
    PyTypeObject *type;
    int i;

    if (!PyArg_ParseTuple(args, "OOOOOOOnn:setup", &cls, &dance, &kinds[K_DOUBLE],
                          &kinds[K_TAKE], &kinds[K_DROP], &kinds[K_WIN], &kinds[K_LOSS],
                          &lone, &gap))
        return NULL;
    if (!PyCallable_Check(dance))
        Py_RETURN_FALSE;
    for (i = 0; i < N_KINDS; i++)
        if (!PyCallable_Check(kinds[i]))
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
    if (kind_kwnames[0] == NULL) {
        kind_kwnames[K_DOUBLE] = Py_BuildValue("(sssss)", "value", "kind", "line", "column",
                                               "move_number");
        kind_kwnames[K_TAKE] = Py_BuildValue("(sss)", "line", "column", "move_number");
        kind_kwnames[K_DROP] = Py_BuildValue("(sss)", "line", "column", "move_number");
        kind_kwnames[K_WIN] = Py_BuildValue("(sssss)", "points", "match", "line", "column",
                                            "move_number");
        kind_kwnames[K_LOSS] = Py_BuildValue("(ssss)", "points", "line", "column",
                                             "move_number");
        for (i = 0; i < N_KINDS; i++)
            if (kind_kwnames[i] == NULL)
                return NULL;
    }
    if (cannot_move_str == NULL) {
        cannot_move_str = PyUnicode_InternFromString("Cannot Move");
        if (cannot_move_str == NULL)
            return NULL;
    }
    if (double_str == NULL) {
        double_str = PyUnicode_InternFromString("double");
        if (double_str == NULL)
            return NULL;
    }
    if (empty_str == NULL) {
        empty_str = PyUnicode_New(0, 0);
        if (empty_str == NULL)
            return NULL;
    }
    Py_INCREF(dance);
    Py_XSETREF(dance_type, dance);
    for (i = 0; i < N_KINDS; i++) {
        Py_INCREF(kinds[i]);
        Py_XSETREF(kind_types[i], kinds[i]);
    }
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
        int rc, cell_kind, other_kind = 0, flag = 0;
        long long value = -1;

        t.beyond_ascii = 0;
        /* (?:(?P<newline>(?:\n[ \t]*+)++)(?:(?P<number>\d+)\))?)? */
        if (at(&t, p) == '\n') {
            do {
                p++;
                while (IS_BLANK(at(&t, p)))
                    p++;
            } while (at(&t, p) == '\n');
            newline_end = p;
            if (p >= t.n && !t.beyond_ascii) {
                /* only line breaks and blanks are left: `break`, to the end */
                count_breaks(&t, pos, p, &line, &line_start);
                Py_SETREF(number, Py_NewRef(Py_None));
                first = 1;
                pos = p;
                break;
            }
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
        cell_kind = CELL_PLAY;
        if (end < 0 && !t.beyond_ascii) {
            if (IS_DIGIT(at(&t, p))) {
                end = roll_cannot(&t, p);
                cell_kind = CELL_CANNOT;
                if (end < 0 && !t.beyond_ascii) {
                    end = roll(&t, p);
                    cell_kind = CELL_DANCE;
                }
            }
            else {
                end = other_cell(&t, p, &other_kind, &value, &flag);
                cell_kind = CELL_OTHER;
            }
        }
        if (end < 0 || t.beyond_ascii || (num_start >= 0 && num_end - num_start > 18))
            break;   /* the regular expression's to do */

        if (newline_end >= 0) {   /* the cell opens a line */
            count_breaks(&t, pos, newline_end, &line, &line_start);
            if (num_start >= 0) {
                long long n;   /* (at most 18 digits: more were left above) */
                digits(&t, num_start, &n);
                Py_SETREF(number, PyLong_FromLongLong(n));
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

        if (cell_kind != CELL_PLAY) {
            PyObject *fields[2] = {NULL, NULL};
            PyObject *cls = dance_type, *kwnames = dance_kwnames;
            int nfields = 2;
            if (cell_kind == CELL_OTHER) {
                cls = kind_types[other_kind];
                kwnames = kind_kwnames[other_kind];
                switch (other_kind) {
                case K_DOUBLE:   /* _double: value (None without "=> N"), kind */
                    fields[0] = value < 0 ? Py_NewRef(Py_None) : PyLong_FromLongLong(value);
                    fields[1] = Py_NewRef(double_str);
                    break;
                case K_WIN:      /* _win: points, match */
                    fields[0] = PyLong_FromLongLong(value);
                    fields[1] = Py_NewRef(flag ? Py_True : Py_False);
                    break;
                case K_LOSS:     /* _loss: points */
                    fields[0] = PyLong_FromLongLong(value);
                    nfields = 1;
                    break;
                default:         /* Take, Drop: no fields */
                    nfields = 0;
                }
            }
            else {
                /* _roll_dance: dice, written (" ".join(text[3:].split())) */
                fields[0] = Py_BuildValue("(ii)", (int)PyUnicode_READ(t.kind, t.data, p) - '0',
                                          (int)PyUnicode_READ(t.kind, t.data, p + 1) - '0');
                fields[1] = Py_NewRef(cell_kind == CELL_CANNOT ? cannot_move_str : empty_str);
            }
            play = new_action(cls, kwnames, side & 1, fields, nfields, line, column, number);
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

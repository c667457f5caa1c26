/* The board part of a position's IDs in C: an optional speed-up of
 * position_id (gamao_cli/ids/gnubg.py) and of the XGID's position field
 * (gamao_cli/ids/xgid.py, _position_field), which every action of a
 * converted or exported match asks for.
 *
 * The Python code is the reference and the fallback: without this module
 * (no compiler at `pip install .`, or GAMAO_PURE_PYTHON=1) the IDs are made
 * in Python, and tests/test_ids_kernel.py compares the two on every
 * position of the corpus and on boards that are no position.
 *
 * board_ids(me, opp, bottom_is_me) -> (position_id, xgid_field) or None.
 *
 * `me` is the side on roll, `opp` the other, each an exact tuple of 26
 * exact ints in that player's numbering (0 borne off, 1..24 the points, 25
 * the bar). It answers only for a board the Python check accepts in its
 * usual case: each count 0..15, at most 15 checkers a side in all, no point
 * held by both. For anything else (a list, a bool or a float count, a
 * negative count, too many checkers, a point held by both) it returns None
 * and the caller runs the Python code, which says what is wrong.
 *
 * position_id: GNU Backgammon's 14 base64 characters (standard alphabet, no
 * padding) of the 80-bit key: for the player not on roll, then for the
 * player on roll, for each point 1..24 and the bar, a 1 bit per checker and
 * a 0 bit, packed least significant bit first.
 *
 * xgid_field: the XGID's 26 characters seen from the bottom player
 * (`bottom_is_me` true: the player on roll sits at the bottom): character i
 * is the bottom player's point i (1..25, 25 its bar), else the top player's
 * point 25 - i (0..24, 0 its bar): "A".."O" count the bottom player's
 * checkers, "a".."o" the top player's, "-" an empty point.
 *
 * board_facts(me, opp, bottom_is_me) -> (position_id, xgid_field, pips_me,
 * pips_opp) or None: board_ids and each side's pip count (a checker on
 * point i counts i pips, the bar 25), for the same boards (an exported
 * action's row has all four).
 *
 * state_ids(state.__dict__) -> (match_id, xgid_tail) or None; state_ids_of(the
 * twelve fields, in MatchState's order) the same without a state.
 *
 * The rest of the IDs, from a MatchState's fields (gamao_cli/ids/gnubg.py):
 * the Match ID's 12 characters and what an XGID holds after its position
 * field (xgid.py, xgid_tail). It answers only when every field is of the
 * type and range MatchState's usual case has; else None, and the Python
 * code makes them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../kernel_support.h"

#define SIDE 26
#define MAX_CHECKERS 15

static const char B64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Whether `o` is an exact int within lo..hi (its value in *v): 1 or 0, no
 * error left set. */
static int
exact_long(PyObject *o, long lo, long hi, long *v)
{
    return kernel_long(o, v) && *v >= lo && *v <= hi;
}

/* A side tuple into counts: 1, else 0 (not the usual case; no error set). */
static int
load_side(PyObject *side, int *counts)
{
    int total = 0;
    if (!PyTuple_CheckExact(side) || PyTuple_GET_SIZE(side) != SIDE)
        return 0;
    for (Py_ssize_t k = 0; k < SIDE; k++) {
        long v;
        if (!exact_long(PyTuple_GET_ITEM(side, k), 0, MAX_CHECKERS, &v))
            return 0;
        total += (int)v;
        counts[k] = (int)v;
    }
    return total <= MAX_CHECKERS;
}

/* The first `chars` characters of the standard base64 of key[0..bytes)
 * (no padding): both IDs' last step, as gnubg.py's _b64_encode. */
static void
b64(const unsigned char *key, int bytes, char *out, int chars)
{
    for (int i = 0, o = 0; i < bytes && o < chars; i += 3) {
        uint32_t v = (uint32_t)key[i] << 16;
        if (i + 1 < bytes)
            v |= (uint32_t)key[i + 1] << 8;
        if (i + 2 < bytes)
            v |= key[i + 2];
        for (int shift = 18; shift >= 0 && o < chars; shift -= 6)
            out[o++] = B64[(v >> shift) & 63];
    }
}

/* The two sides of board_ids' and board_facts' arguments into counts:
 * 1; 0 for a board the Python code must look at (no error set); -1 with
 * an error set. */
static int
load_board(const char *name, PyObject *const *args, Py_ssize_t nargs, int *me, int *opp,
           int *bottom_is_me)
{
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "%s(me, opp, bottom_is_me) takes 3 arguments", name);
        return -1;
    }
    *bottom_is_me = PyObject_IsTrue(args[2]);
    if (*bottom_is_me < 0)
        return -1;
    if (!load_side(args[0], me) || !load_side(args[1], opp))
        return 0;
    for (int p = 1; p <= 24; p++)
        if (me[p] && opp[25 - p])
            return 0;   /* a point held by both: Python says which */
    return 1;
}

/* `n` ASCII characters as a new str (NULL with an error on a failure). */
static PyObject *
ascii(const char *text, Py_ssize_t n)
{
    PyObject *out = PyUnicode_New(n, 127);
    if (out != NULL)
        memcpy(PyUnicode_1BYTE_DATA(out), text, (size_t)n);
    return out;
}

/* A tuple of the `n` new references `items` (taken, also on a failure: a
 * NULL among them is the failure, its error set). */
static PyObject *
tuple_of(PyObject **items, int n)
{
    PyObject *out = NULL;
    for (int k = 0; k < n; k++)
        if (items[k] == NULL)
            goto done;
    out = PyTuple_New(n);
    if (out != NULL)
        for (int k = 0; k < n; k++) {
            PyTuple_SET_ITEM(out, k, items[k]);
            items[k] = NULL;
        }
done:
    for (int k = 0; k < n; k++)
        Py_XDECREF(items[k]);
    return out;
}

/* The Position ID (14 characters) and the XGID's position field (26) of a
 * board load_board accepted. */
static void
make_board_ids(const int *me, const int *opp, int bottom_is_me, char *pid, char *field)
{
    unsigned char key[10] = {0};
    int bit = 0;
    const int *sides[2], *bottom, *top;

    /* the Position ID's key: the player not on roll first */
    sides[0] = opp;
    sides[1] = me;
    for (int s = 0; s < 2; s++) {
        for (int p = 1; p <= 25; p++) {
            for (int n = 0; n < sides[s][p]; n++, bit++)
                key[bit >> 3] |= (unsigned char)(1u << (bit & 7));
            bit++;   /* the 0 that ends the point */
        }
    }
    /* 80 bits <= 2 * (15 + 25): the key never overflows its 10 bytes */
    b64(key, 10, pid, 14);

    bottom = bottom_is_me ? me : opp;
    top = bottom_is_me ? opp : me;
    for (int i = 0; i < SIDE; i++) {
        int b = i >= 1 ? bottom[i] : 0;
        int t = i <= 24 ? top[25 - i] : 0;
        field[i] = b ? (char)('A' + b - 1) : t ? (char)('a' + t - 1) : '-';
    }
}

static PyObject *
board_ids(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int me[SIDE], opp[SIDE], bottom_is_me;
    char pid[14], field[SIDE];
    int usual = load_board("board_ids", args, nargs, me, opp, &bottom_is_me);
    (void)module;
    if (usual <= 0)
        return usual < 0 ? NULL : Py_NewRef(Py_None);
    make_board_ids(me, opp, bottom_is_me, pid, field);
    PyObject *out[2] = {ascii(pid, 14), ascii(field, SIDE)};
    return tuple_of(out, 2);
}

/* A side's pip count: a checker on point i counts i pips (the bar 25). */
static long
pips(const int *side)
{
    long total = 0;
    for (int k = 1; k < SIDE; k++)
        total += (long)k * side[k];
    return total;
}

static PyObject *
board_facts(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int me[SIDE], opp[SIDE], bottom_is_me;
    char pid[14], field[SIDE];
    int usual = load_board("board_facts", args, nargs, me, opp, &bottom_is_me);
    (void)module;
    if (usual <= 0)
        return usual < 0 ? NULL : Py_NewRef(Py_None);
    make_board_ids(me, opp, bottom_is_me, pid, field);
    PyObject *out[4] = {ascii(pid, 14), ascii(field, SIDE), PyLong_FromLong(pips(me)),
                        PyLong_FromLong(pips(opp))};
    return tuple_of(out, 4);
}

static PyObject *names[12];
static const char *const NAMES[12] = {
    "cube", "cube_owner", "on_roll", "crawford", "game_state", "turn",
    "double_offered", "resignation", "dice", "length", "score", "jacoby"};

/* A field that must be exactly True or False: 1, else 0. */
static int
bool_arg(PyObject *o, int *v)
{
    if (o == Py_True || o == Py_False) {
        *v = o == Py_True;
        return 1;
    }
    return 0;
}

/* A field that must be an exact tuple of two exact ints lo..hi. */
static int
pair_arg(PyObject *o, long lo, long hi, long *a, long *b)
{
    return o != NULL && PyTuple_CheckExact(o) && PyTuple_GET_SIZE(o) == 2
        && exact_long(PyTuple_GET_ITEM(o, 0), lo, hi, a)
        && exact_long(PyTuple_GET_ITEM(o, 1), lo, hi, b);
}

/* The IDs of a state's twelve fields `f` (MatchState's order, NAMES; a
 * NULL field is missing): (match_id, xgid_tail), or None when a field is
 * not of its usual type and range. */
static PyObject *
ids_of_fields(PyObject *const *f)
{
    long cube, owner, on_roll, game_state, turn, resignation, d1, d2, length, s0, s1;
    int crawford, offered, jacoby, cube_log = 0;
    unsigned char key[9] = {0};
    char mid[12], tail[96];
    int n;
    if (f[1] == NULL)
        Py_RETURN_NONE;
    if (f[1] == Py_None)
        owner = 3;
    else if (!exact_long(f[1], 0, 1, &owner))
        Py_RETURN_NONE;
    if (!exact_long(f[0], 1, 1L << 15, &cube) || (cube & (cube - 1))
            || !exact_long(f[2], 0, 1, &on_roll) || !bool_arg(f[3], &crawford)
            || !exact_long(f[4], 0, 4, &game_state) || !exact_long(f[5], 0, 1, &turn)
            || !bool_arg(f[6], &offered) || !exact_long(f[7], 0, 3, &resignation)
            || !pair_arg(f[8], 0, 6, &d1, &d2) || ((d1 == 0) != (d2 == 0))
            || !exact_long(f[9], 0, (1L << 15) - 1, &length)
            || !pair_arg(f[10], 0, (1L << 15) - 1, &s0, &s1)
            || !bool_arg(f[11], &jacoby))
        Py_RETURN_NONE;
    while ((1L << cube_log) < cube)
        cube_log++;

    /* the Match ID: gnubg.py's table of fields, the higher die first */
    {
        long hi_die = d1 > d2 ? d1 : d2, lo_die = d1 > d2 ? d2 : d1;
        uint64_t k0 = (uint64_t)cube_log | (uint64_t)owner << 4 | (uint64_t)on_roll << 6
            | (uint64_t)crawford << 7 | (uint64_t)game_state << 8 | (uint64_t)turn << 11
            | (uint64_t)offered << 12 | (uint64_t)resignation << 13 | (uint64_t)hi_die << 15
            | (uint64_t)lo_die << 18 | (uint64_t)length << 21 | (uint64_t)s0 << 36
            | (uint64_t)s1 << 51;   /* bits 0..63; bits 64..66 below */
        unsigned top = (unsigned)(s1 >> 13) | (unsigned)(!jacoby) << 2;
        for (int i = 0; i < 8; i++)
            key[i] = (unsigned char)(k0 >> (8 * i));
        key[8] = (unsigned char)top;
        b64(key, 9, mid, 12);
    }
    /* the XGID after its position field: xgid.py's xgid_tail */
    {
        char dice[3];
        if (offered) {
            dice[0] = 'D';
            dice[1] = 0;
        } else {
            dice[0] = (char)('0' + d1);
            dice[1] = (char)('0' + d2);
            dice[2] = 0;
        }
        n = snprintf(tail, sizeof tail, ":%d:%d:%d:%s:%ld:%ld:%d:%ld:10", cube_log,
                     owner == 3 ? 0 : owner == 1 ? 1 : -1, on_roll == 1 ? 1 : -1, dice, s1, s0,
                     length ? crawford : jacoby, length);
        if (n < 0 || n >= (int)sizeof tail)
            Py_RETURN_NONE;
    }
    return Py_BuildValue("(s#s#)", mid, (Py_ssize_t)12, tail, (Py_ssize_t)n);
}

static PyObject *
state_ids(PyObject *module, PyObject *d)
{
    PyObject *f[12];
    (void)module;
    if (!PyDict_CheckExact(d))
        Py_RETURN_NONE;
    for (int k = 0; k < 12; k++) {
        f[k] = PyDict_GetItemWithError(d, names[k]);   /* borrowed, or NULL */
        if (f[k] == NULL && PyErr_Occurred())
            PyErr_Clear();
    }
    return ids_of_fields(f);
}

static PyObject *
state_ids_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "state_ids_of takes MatchState's 12 fields");
        return NULL;
    }
    return ids_of_fields(args);
}

static PyMethodDef methods[] = {
    {"state_ids", state_ids, METH_O,
     "state_ids(state.__dict__) -> (Match ID, XGID tail), or None for a state the Python "
     "code must look at."},
    {"state_ids_of", (PyCFunction)(void (*)(void))state_ids_of, METH_FASTCALL,
     "state_ids_of(cube, cube_owner, on_roll, crawford, game_state, turn, double_offered, "
     "resignation, dice, length, score, jacoby) -> (Match ID, XGID tail) of the state "
     "MatchState.of(...) makes, or None for fields the Python code must look at."},
    {"board_ids", (PyCFunction)(void (*)(void))board_ids, METH_FASTCALL,
     "board_ids(me, opp, bottom_is_me) -> (Position ID, XGID position field), or None "
     "for a board the Python code must look at."},
    {"board_facts", (PyCFunction)(void (*)(void))board_facts, METH_FASTCALL,
     "board_facts(me, opp, bottom_is_me) -> (Position ID, XGID position field, pips of me, "
     "pips of opp), or None for a board the Python code must look at."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_ids",
    "The board part of a position's IDs in C (optional; gnubg.py and xgid.py are the reference).",
    -1, methods,
};

PyMODINIT_FUNC
PyInit__ids(void)
{
    for (int i = 0; i < 12; i++) {
        names[i] = PyUnicode_InternFromString(NAMES[i]);
        if (names[i] == NULL)
            return NULL;
    }
    return PyModule_Create(&module_def);
}

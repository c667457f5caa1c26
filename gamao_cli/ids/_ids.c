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
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define SIDE 26
#define MAX_CHECKERS 15

static const char B64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* A side tuple into counts: 1, else 0 (not the usual case; no error set). */
static int
load_side(PyObject *side, int *counts)
{
    int total = 0;
    if (!PyTuple_CheckExact(side) || PyTuple_GET_SIZE(side) != SIDE)
        return 0;
    for (Py_ssize_t k = 0; k < SIDE; k++) {
        PyObject *o = PyTuple_GET_ITEM(side, k);
        int overflow;
        long v;
        if (!PyLong_CheckExact(o))
            return 0;
        v = PyLong_AsLongAndOverflow(o, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
        if (v < 0 || v > MAX_CHECKERS)
            return 0;
        total += (int)v;
        counts[k] = (int)v;
    }
    return total <= MAX_CHECKERS;
}

static PyObject *
board_ids(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int me[SIDE], opp[SIDE];
    unsigned char key[10] = {0};
    char pid[14], field[SIDE];
    int bit = 0, bottom_is_me;
    const int *sides[2], *bottom, *top;
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "board_ids(me, opp, bottom_is_me) takes 3 arguments");
        return NULL;
    }
    bottom_is_me = PyObject_IsTrue(args[2]);
    if (bottom_is_me < 0)
        return NULL;
    if (!load_side(args[0], me) || !load_side(args[1], opp))
        Py_RETURN_NONE;
    for (int p = 1; p <= 24; p++)
        if (me[p] && opp[25 - p])
            Py_RETURN_NONE;   /* a point held by both: Python says which */

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
    for (int i = 0, o = 0; i < 10; i += 3) {
        uint32_t v = (uint32_t)key[i] << 16;
        if (i + 1 < 10)
            v |= (uint32_t)key[i + 1] << 8;
        if (i + 2 < 10)
            v |= key[i + 2];
        pid[o++] = B64[(v >> 18) & 63];
        pid[o++] = B64[(v >> 12) & 63];
        if (o < 14)
            pid[o++] = B64[(v >> 6) & 63];
        if (o < 14)
            pid[o++] = B64[v & 63];
    }

    bottom = bottom_is_me ? me : opp;
    top = bottom_is_me ? opp : me;
    for (int i = 0; i < SIDE; i++) {
        int b = i >= 1 ? bottom[i] : 0;
        int t = i <= 24 ? top[25 - i] : 0;
        field[i] = b ? (char)('A' + b - 1) : t ? (char)('a' + t - 1) : '-';
    }
    {
        PyObject *p = PyUnicode_FromStringAndSize(pid, 14);
        PyObject *f = p ? PyUnicode_FromStringAndSize(field, SIDE) : NULL;
        PyObject *out;
        if (f == NULL) {
            Py_XDECREF(p);
            return NULL;
        }
        out = PyTuple_Pack(2, p, f);
        Py_DECREF(p);
        Py_DECREF(f);
        return out;
    }
}

static PyMethodDef methods[] = {
    {"board_ids", (PyCFunction)(void (*)(void))board_ids, METH_FASTCALL,
     "board_ids(me, opp, bottom_is_me) -> (Position ID, XGID position field), or None "
     "for a board the Python code must look at."},
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
    return PyModule_Create(&module_def);
}

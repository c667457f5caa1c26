/* The replay's run of plays in C: an optional speed-up of the loop of
 * _GameReplay.plays (gamao_cli/replay/replay.py) and of play_plan
 * (gamao_cli/rules/resolve.py), for a validation without records.
 *
 * The Python code is the reference and the fallback: without this module
 * (no compiler at `pip install .`, or GAMAO_PURE_PYTHON=1) the replay runs
 * the Python loop, and tests/test_play_run_kernel.py replays the whole
 * corpus both ways and compares.
 *
 * run(actions, i, me, opp, turn, marks) plays actions[i], actions[i+1], ...
 * while each is the plain case of the Python loop:
 *   - exactly a Play (class identity) of the player `turn` (0 or 1), both
 *     dice ints 1..6;
 *   - its text's memo (PlayText.plan, read only while the play is its text:
 *     Play._moves is None) is there, for the same roll (memo[0] ==
 *     d1 << 3 | d2), with a non-empty plan memo[1] of (from, die) steps,
 *     from 1..25, die 1..6 (anything else is declined, never trusted);
 *   - the plan plays with play_plan's tests in play_plan's order, and, with
 *     `marks`, the points hit are the hit-marked points memo[2];
 *   - the play does not bear off the mover's last checker;
 * and each Dance (class identity) of the player `turn`, both dice 1..6,
 * whose player has a checker on the bar and both entry points held (opp[d]
 * of at least 2 for each die d): the turn passes, as the Python loop does.
 * It plays each on C copies of the side lists `me` (the side on roll) and
 * `opp`, 26 counts each, and swaps them after each play, as the Python loop
 * does. At the first action that is not that plain case it stops, with the
 * arrays exactly as they were before that action, and returns its index:
 * the Python loop then handles that action as it always does (it computes
 * the memo, plays a play of fewer dice, sends a failing play the full way,
 * ends the game with board.outcome_of). Before returning, the counts that
 * changed are written back to the two lists (the same list objects: after
 * an odd number of actions the caller swaps its names for them). It
 * returns (that index, how many of the actions it replayed were dances).
 *
 * Nothing here runs Python code, but for a hit-marked set whose members
 * compare by a Python __eq__ (a reader gives ints): an error there is
 * cleared and the play declined, and Python meets it again.
 *
 * bind(Play, PlayText, Dance) must be called once first: it reads where the
 * slots the loop reads (player, dice, _moves, _written; plan; a Dance's
 * player and dice) are in the objects,
 * from the classes' member descriptors, and refuses classes that do not
 * have them as plain object slots.
 *
 * run_records(actions, i, me, opp, turn, marks, records, cube, owner,
 * before, kept) is run() for a replay that keeps its records (the writers'):
 * the same plays (a dance is left to Python), and for each the record the
 * Python loop appends to `records`: ActionRecord(play, turn, the position
 * before it, cube, owner, its die steps), made without the classes'
 * __init__ (bind_records(ActionRecord, Position) reads their slots). The
 * position before the first play is `before` when given (the replay's
 * own), else made from the arrays, sharing `kept` (the mover's side left
 * by a play that hit nothing) as the Python loop shares it; the steps of a
 * play that hits nothing are its text's memo's fifth item, made and kept
 * there when missing. It returns (the index of the first action left to
 * Python, the position before it or None, the side kept or None).
 *
 * play_plan(me, opp, plan, marked) is play_plan's twin on two lists, for
 * the tests: the points hit, or None and the lists as they were.
 *
 * bind_memo(shape_of) lets the loop make a play's memo when it is missing
 * (or for another roll), as the Python loop makes it: for a PlayText whose
 * shape_of is that function (notation.shape_of), the movements and
 * hit-marked points of its text as shape_of reads them, and the
 * written-order plan of _written_order_plan (resolve.py); only when the
 * text is plain (ASCII steps of points 0-99, "bar", "b", "off", "o", a "*"
 * after a point, a "(n)" repeat of 1-9, one or more spaces between) and the
 * plan plays the whole roll: (roll, plan, marked, (), None) goes into the
 * text's plan slot. Anything else is left to Python, which makes it.
 * text_memo(text, d1, d2) gives that memo, or None, for the tests.
 *
 * placed(records, rolls, offers, double, crawford, score, length, jacoby,
 * cache, put, make) is the loop of _placed (gamao_cli/replay/snapshots.py)
 * over one game's records, for the states before its actions: for each
 * record with a position and a turn, the key of MatchState's twelve fields
 * (cube clamped to 2**15, owner, on roll, crawford, game state: "none" at
 * the first roll, else "playing", turn: the player offered the cube after
 * an offer (Take, Drop, a Double of another kind than "double"), offered,
 * no resignation, the dice higher first or (0, 0), length, score, jacoby),
 * its value from `cache` (a dict) or put there as put(key, make(*key)), and
 * (record, value) in the list it returns when the value is not None.
 * `rolls` and `offers` are the classes of the two isinstance tests,
 * `double` Double's. It answers only when every record is a bound
 * ActionRecord with its slots set and every roll's dice a tuple of two
 * ints; else None, before anything is made, and Python runs its loop.
 *
 * max_dice(me, opp, d1, d2) is max_dice_playable's twin (rules/plays.py,
 * _max_dice's search, die_step's tests in their order) on two sides given
 * as tuples or lists of 26 ints: how many dice of d1-d2 a legal play uses;
 * -1 for what it declines (dice off 1..6, a side that is no 26 exact ints
 * of at most COUNT_LIMIT), which Python then works out.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include "../kernel_support.h"
#include <stdint.h>
#include <string.h>

#define SIDE 26
#define MAX_STEPS 8
/* counts beyond this are left to Python (no C overflow, whatever the input) */
#define COUNT_LIMIT ((int64_t)1 << 40)

static PyTypeObject *play_type = NULL, *text_type = NULL, *dance_type = NULL;
/* bind_records(ActionRecord, Position): the record and position classes and
 * where their slots are (run_records makes both without their __init__) */
static PyTypeObject *record_type = NULL, *position_type = NULL;
static Py_ssize_t off_rec[6], off_pos_me, off_pos_opp;
static Py_ssize_t off_player, off_dice, off_moves, off_written, off_plan;
static Py_ssize_t off_dance_player, off_dance_dice;



/* A side list into a C array: 1, else 0 (not a list of 26 exact ints;
 * with `tuples`, a tuple of them is taken too). */
static int
load_side_of(PyObject *seq, int64_t *side, int tuples)
{
    if (!(PyList_CheckExact(seq) || (tuples && PyTuple_CheckExact(seq)))
            || PySequence_Fast_GET_SIZE(seq) != SIDE)
        return 0;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t k = 0; k < SIDE; k++) {
        long v;
        if (!kernel_long(items[k], &v) || v >= COUNT_LIMIT || v <= -COUNT_LIMIT)
            return 0;
        side[k] = v;
    }
    return 1;
}

static int
load_side(PyObject *list, int64_t *side)
{
    return load_side_of(list, side, 0);
}

/* Write the counts that changed back to the list: 0, or -1 with an error. */
static int
store_side(PyObject *list, const int64_t *side, const int64_t *was)
{
    for (Py_ssize_t k = 0; k < SIDE; k++) {
        if (side[k] != was[k]) {
            PyObject *v = PyLong_FromLongLong(side[k]);
            if (v == NULL)
                return -1;
            if (PyList_SetItem(list, k, v) < 0)   /* steals v */
                return -1;
        }
    }
    return 0;
}

/* A plan (an exact tuple of 1..MAX_STEPS exact (from, die) tuples, from
 * 1..25, die 1..6) into cur[]/die[]: its length, else 0. */
static Py_ssize_t
load_plan(PyObject *plan, int *cur, int *die)
{
    if (!PyTuple_CheckExact(plan))
        return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(plan);
    if (n < 1 || n > MAX_STEPS)
        return 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *step = PyTuple_GET_ITEM(plan, k);
        long c, d;
        if (!PyTuple_CheckExact(step) || PyTuple_GET_SIZE(step) != 2
                || !kernel_long(PyTuple_GET_ITEM(step, 0), &c)
                || !kernel_long(PyTuple_GET_ITEM(step, 1), &d)
                || c < 1 || c > 25 || d < 1 || d > 6)
            return 0;
        cur[k] = (int)c;
        die[k] = (int)d;
    }
    return n;
}

/* play_plan's steps on C arrays, its tests in its order: 1 when every step
 * is legal (the arrays then hold the position after, *hitmask the points
 * hit, *nhits how many), else 0 with the arrays partly played (the caller
 * restores them). The indexes stay in 0..25: cur in 1..25, die in 1..6. */
static int
play_steps(int64_t *me, int64_t *opp, const int *cur, const int *die, Py_ssize_t n,
           uint32_t *hitmask, int *nhits)
{
    uint32_t mask = 0;
    int count = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        int c = cur[k];
        int t = c - die[k];
        if (!me[c] || (me[25] && c != 25))
            return 0;                       /* no checker there; the bar first */
        if (t > 0) {
            int64_t o = opp[25 - t];
            if (o > 1)
                return 0;                   /* the point is held */
            me[c] -= 1;
            me[t] += 1;
            if (o) {                        /* a lone checker there: hit */
                opp[25 - t] = 0;
                opp[25] += 1;
                if (!(mask & (1u << t)))
                    count++;
                mask |= 1u << t;
            }
        }
        else {                              /* bearing off */
            for (int p = 7; p < SIDE; p++)
                if (me[p])
                    return 0;               /* checkers outside */
            if (t)
                for (int p = c + 1; p < 7; p++)
                    if (me[p])
                        return 0;           /* one higher */
            me[c] -= 1;
            me[0] += 1;
        }
    }
    *hitmask = mask;
    *nhits = count;
    return 1;
}

/* Whether the points of hitmask (nhits of them) are the set `marked`
 * (set(hits) == marked): 1 or 0, -1 with an error set. */
static int
hits_are_marked(uint32_t hitmask, int nhits, PyObject *marked)
{
    if (PySet_GET_SIZE(marked) != nhits)
        return 0;
    int same = 1;
    Py_INCREF(marked);
    for (int t = 1; t < SIDE && same == 1; t++) {
        if (hitmask & (1u << t)) {
            PyObject *key = PyLong_FromLong(t);
            if (key == NULL) {
                same = -1;
                break;
            }
            same = PySet_Contains(marked, key);
            Py_DECREF(key);
        }
    }
    Py_DECREF(marked);
    return same;
}

/* The marks test of play_plan: 1 the play stands, 0 not, -1 an error.
 * marked: NULL for None (no marks to check), else an exact set or frozenset. */
static int
marks_agree(uint32_t hitmask, int nhits, PyObject *marked)
{
    if (nhits)
        return marked == NULL ? 1 : hits_are_marked(hitmask, nhits, marked);
    return marked == NULL || PySet_GET_SIZE(marked) == 0;
}

/* What bind_memo binds: notation.shape_of, and where PlayText keeps its
 * text and its shape_of. */
static PyObject *shape_of_fn = NULL;
static Py_ssize_t off_text, off_shape_of;

#define MAX_MOVES 8

/* shape_of (model/notation.py) of a plain ASCII text: its movements into
 * src/dst (their number), the hit-marked points into *marked (a bit a
 * point); -1 when the text is not plain (Python reads it). */
static int
plain_shape(const char *t, Py_ssize_t len, int *src, int *dst, uint64_t *marked)
{
    int n = 0;
    uint64_t mask = 0;
    Py_ssize_t i = 0;
    while (i < len) {
        if (t[i] == ' ') {
            i++;
            continue;
        }
        Py_ssize_t end = i;
        while (end < len && t[end] != ' ')
            end++;
        /* one step t[i..end): points joined by '/', then maybe "(n)" */
        int repeat = 1;
        Py_ssize_t stop = end;
        if (t[end - 1] == ')') {
            if (end - i < 4 || t[end - 3] != '(' || t[end - 2] < '1' || t[end - 2] > '9')
                return -1;
            repeat = t[end - 2] - '0';
            stop = end - 3;
        }
        int pts[MAX_MOVES + 1], hits[MAX_MOVES + 1], npts = 0;
        Py_ssize_t w = i;
        for (;;) {
            Py_ssize_t we = w;
            while (we < stop && t[we] != '/')
                we++;
            Py_ssize_t wl = we - w;
            int hit = 0;
            if (wl && t[we - 1] == '*') {
                hit = 1;
                wl--;
            }
            int point;
            if (wl == 0)
                return -1;
            if (t[w] >= '0' && t[w] <= '9') {
                if (wl > 2 || (wl == 2 && (t[w + 1] < '0' || t[w + 1] > '9')))
                    return -1;
                point = t[w] - '0';
                if (wl == 2)
                    point = point * 10 + t[w + 1] - '0';
            }
            else {
                char c0 = (char)(t[w] | 0x20);
                if (wl == 1 && c0 == 'b')
                    point = 25;
                else if (wl == 1 && c0 == 'o')
                    point = 0;
                else if (wl == 3 && c0 == 'b' && (t[w + 1] | 0x20) == 'a'
                         && (t[w + 2] | 0x20) == 'r')
                    point = 25;
                else if (wl == 3 && c0 == 'o' && (t[w + 1] | 0x20) == 'f'
                         && (t[w + 2] | 0x20) == 'f')
                    point = 0;
                else
                    return -1;
            }
            if (npts > MAX_MOVES || point > 25)
                return -1;                  /* (a point past the bar: no plan) */
            pts[npts] = point;
            hits[npts] = hit;
            npts++;
            if (we == stop)
                break;
            w = we + 1;
        }
        for (int r = 0; r < repeat; r++)
            for (int k = 1; k < npts; k++) {
                if (n == MAX_MOVES)
                    return -1;
                src[n] = pts[k - 1];
                dst[n] = pts[k];
                n++;
            }
        for (int k = 1; k < npts; k++)
            if (hits[k])
                mask |= (uint64_t)1 << pts[k];
        i = end;
    }
    *marked = mask;
    return n;
}

/* _written_order_plan (resolve.py) of the movements with d1-d2: the plan's
 * length, its steps into cur/die, and *left the dice it leaves unused; -1
 * for None. */
static int
written_order_plan(const int *src, const int *dst, int n, int d1, int d2, int *cur, int *die,
                   int *left)
{
    int k = 0;
    if (d1 == d2) {
        int dice_left = 4;
        for (int m = 0; m < n; m++) {
            int s = src[m], d = dst[m], steps;
            if (!(0 < s && s <= 25) || !(0 <= d && d < s))
                return -1;
            if (d) {
                if ((s - d) % d1)
                    return -1;
                steps = (s - d) / d1;
            }
            else
                steps = (s + d1 - 1) / d1;
            if (steps > dice_left)
                return -1;
            dice_left -= steps;
            for (int q = 0; q < steps; q++) {
                cur[k] = s;
                die[k] = d1;
                k++;
                s -= d1;
            }
        }
        *left = dice_left;
        return k;
    }
    int dice[2] = {d1, d2}, nd = 2;
    for (int m = 0; m < n; m++) {
        int s = src[m], d = dst[m];
        if (!(0 < s && s <= 25) || !(0 <= d && d < s))
            return -1;
        int use = -1;                       /* the index in dice[] of the die used */
        if (d) {
            int dist = s - d;
            for (int q = 0; q < nd; q++)
                if (dice[q] == dist) {
                    use = q;
                    break;
                }
            if (use < 0) {
                if (dist == d1 + d2 && nd == 2) {
                    nd = 0;
                    cur[k] = s;
                    die[k] = d1;
                    cur[k + 1] = s - d1;
                    die[k + 1] = d2;
                    k += 2;
                    continue;
                }
                return -1;
            }
        }
        else {
            for (int q = 0; q < nd; q++)
                if (dice[q] == s) {
                    use = q;
                    break;
                }
            if (use < 0)
                for (int q = 0; q < nd; q++)
                    if (dice[q] > s && (use < 0 || dice[q] < dice[use]))
                        use = q;
            if (use < 0)
                return -1;
        }
        cur[k] = s;
        die[k] = dice[use];
        k++;
        if (use == 0 && nd == 2)
            dice[0] = dice[1];
        nd--;
    }
    *left = nd;
    return k;
}

/* The memo of a plain text with d1-d2 (a new tuple), or NULL: not plain,
 * not a whole plan, or an error (set). */
static PyObject *
make_memo(PyObject *text, long d1, long d2)
{
    if (!PyUnicode_CheckExact(text) || !PyUnicode_IS_ASCII(text))
        return NULL;
    int src[MAX_MOVES], dst[MAX_MOVES], cur[MAX_STEPS], die[MAX_STEPS], left;
    uint64_t marked;
    int n = plain_shape((const char *)PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text),
                        src, dst, &marked);
    if (n < 0)
        return NULL;
    int k = written_order_plan(src, dst, n, (int)d1, (int)d2, cur, die, &left);
    if (k <= 0 || left)
        return NULL;                        /* no whole plan: Python's part */
    PyObject *plan = PyTuple_New(k), *marks = NULL, *memo = NULL;
    if (plan == NULL)
        return NULL;
    for (int q = 0; q < k; q++) {
        PyObject *step = Py_BuildValue("(ii)", cur[q], die[q]);
        if (step == NULL)
            goto fail;
        PyTuple_SET_ITEM(plan, q, step);
    }
    marks = PyFrozenSet_New(NULL);
    if (marks == NULL)
        goto fail;
    for (int p = 0; p < 64; p++)
        if (marked & ((uint64_t)1 << p)) {
            PyObject *v = PyLong_FromLong(p);
            if (v == NULL || PySet_Add(marks, v) < 0) {
                Py_XDECREF(v);
                goto fail;
            }
            Py_DECREF(v);
        }
    memo = Py_BuildValue("(lNN()O)", d1 << 3 | d2, plan, marks, Py_None);
    return memo;                            /* (N: plan and marks taken) */
fail:
    Py_DECREF(plan);
    Py_XDECREF(marks);
    return NULL;
}

/* _max_dice (rules/plays.py): the most of dice[i..n) playable from here,
 * the sources tried from the highest down (for a double, no higher than
 * the last one), each step as die_step allows it and as move_checker moves
 * it, taken back after. */
static int
max_dice_from(int64_t *me, int64_t *opp, const int *dice, int n, int i, int top)
{
    if (i == n)
        return n;
    int d = dice[i];
    int dbl = dice[0] == dice[n - 1];
    int best = i;
    int hi, lo;
    if (me[25]) {                   /* the bar first: no other source */
        if (top != 25)
            return best;
        hi = lo = 25;
    }
    else {
        hi = top < 25 ? top : 24;
        lo = 1;
    }
    for (int src = hi; src >= lo; src--) {
        if (!me[src])
            continue;
        int t = src - d;
        if (t > 0) {
            if (opp[25 - t] >= 2)
                continue;           /* the point is held */
        }
        else {
            int outside = 0;
            for (int p = 7; p < SIDE; p++)
                if (me[p]) {
                    outside = 1;
                    break;
                }
            if (outside)
                break;              /* every lower source would bear off too */
            if (t) {
                int higher = 0;
                for (int p = src + 1; p < 7; p++)
                    if (me[p]) {
                        higher = 1;
                        break;
                    }
                if (higher)
                    continue;
            }
            t = 0;
        }
        int hit = 0;
        me[src] -= 1;
        me[t] += 1;
        if (t && opp[25 - t] == 1) {
            opp[25 - t] = 0;
            opp[25] += 1;
            hit = 1;
        }
        int r = max_dice_from(me, opp, dice, n, i + 1, dbl ? src : 25);
        if (hit) {
            opp[25] -= 1;
            opp[25 - t] = 1;
        }
        me[t] -= 1;
        me[src] += 1;
        if (r > best) {
            if (r == n)
                return n;
            best = r;
        }
    }
    return best;
}

static PyObject *
max_dice(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int64_t me[SIDE], opp[SIDE];
    long d1, d2;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "max_dice(me, opp, d1, d2)");
        return NULL;
    }
    if (!kernel_long(args[2], &d1) || !kernel_long(args[3], &d2) || d1 < 1 || d1 > 6
            || d2 < 1 || d2 > 6 || !load_side_of(args[0], me, 1) || !load_side_of(args[1], opp, 1))
        return PyLong_FromLong(-1);
    if (d1 < d2) {
        long x = d1;
        d1 = d2;
        d2 = x;
    }
    int dice[4] = {(int)d1, (int)d2, (int)d1, (int)d1};
    if (d1 == d2)
        return PyLong_FromLong(max_dice_from(me, opp, dice, 4, 0, 25));
    int a = max_dice_from(me, opp, dice, 2, 0, 25);
    if (a == 2)
        return PyLong_FromLong(2);
    int other[2] = {(int)d2, (int)d1};
    int b = max_dice_from(me, opp, other, 2, 0, 25);
    return PyLong_FromLong(a > b ? a : b);
}

/* What a run with records kept needs (run_records): where the records go,
 * how to make one and a position, the cube (a run of plays does not move
 * it), and the position before the next play: `before` (a Position) for
 * the first, then `kept` (the mover's side as a tuple, when the play before
 * hit nothing: the opponent's side it left is the next mover's). */
typedef struct {
    PyObject *records, *cube, *owner;
    PyObject *before, *kept;   /* new references or NULL */
} Keep;

/* A new object of a class bound by bind_records, its slots set to `values`
 * (new references taken), as the class's own __init__ would set them. */
static PyObject *
made(PyTypeObject *type, const Py_ssize_t *offsets, PyObject **values, int n)
{
    PyObject *o = type->tp_alloc(type, 0);
    if (o == NULL) {
        for (int k = 0; k < n; k++)
            Py_DECREF(values[k]);
        return NULL;
    }
    for (int k = 0; k < n; k++)
        SLOT(o, offsets[k]) = values[k];
    return o;
}

/* A side as a new tuple of ints. */
static PyObject *
side_tuple(const int64_t *side)
{
    PyObject *t = PyTuple_New(SIDE);
    if (t == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < SIDE; k++) {
        PyObject *v = PyLong_FromLongLong(side[k]);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, v);
    }
    return t;
}

/* steps_of_plan (resolve.py): the die steps (from, to, hit) of a plan that
 * hit the points of hitmask, a new tuple. */
static PyObject *
plan_steps(const int *cur, const int *die, Py_ssize_t n, uint32_t hitmask)
{
    uint32_t landed = 0;
    PyObject *steps = PyTuple_New(n);
    if (steps == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        int t = cur[k] > die[k] ? cur[k] - die[k] : 0;
        int hit = (hitmask & (1u << t)) && !(landed & (1u << t));
        landed |= 1u << t;
        PyObject *step = Py_BuildValue("(iiO)", cur[k], t, hit ? Py_True : Py_False);
        if (step == NULL) {
            Py_DECREF(steps);
            return NULL;
        }
        PyTuple_SET_ITEM(steps, k, step);
    }
    return steps;
}

/* The record of a play just made (keep's records get it): 0, or -1 with an
 * error set. `before` holds the two sides before the play (me, opp), the
 * plan is cur/die (n steps) and hit hitmask; memo is its text's memo
 * (roll, plan, marks, fewer, steps of the plan when it hits nothing), the
 * last kept up to date as the Python loop keeps it. */
static int
keep_record(Keep *keep, PyObject *a, long turn, const int64_t *before, PyObject *written,
            PyObject *memo, const int *cur, const int *die, Py_ssize_t n, uint32_t hitmask)
{
    PyObject *position = keep->before, *steps = NULL, *record, *args[6];
    keep->before = NULL;
    if (position == NULL) {
        PyObject *me_t = keep->kept, *opp_t;
        keep->kept = NULL;
        if (me_t == NULL && (me_t = side_tuple(before)) == NULL)
            return -1;
        opp_t = side_tuple(before + SIDE);
        if (opp_t == NULL) {
            Py_DECREF(me_t);
            return -1;
        }
        PyObject *pair[2] = {me_t, opp_t};
        Py_ssize_t offsets[2] = {off_pos_me, off_pos_opp};
        position = made(position_type, offsets, pair, 2);
        if (position == NULL)
            return -1;
    }
    else
        Py_CLEAR(keep->kept);
    if (!hitmask && PyTuple_GET_SIZE(memo) == 5 && PyTuple_GET_ITEM(memo, 4) != Py_None) {
        steps = PyTuple_GET_ITEM(memo, 4);   /* the steps the plays written alike share */
        Py_INCREF(steps);
    }
    else {
        steps = plan_steps(cur, die, n, hitmask);
        if (steps == NULL)
            goto fail;
        if (!hitmask && PyTuple_GET_SIZE(memo) == 5) {   /* kept with the text */
            PyObject *updated = PyTuple_New(5);
            if (updated == NULL)
                goto fail;
            for (Py_ssize_t k = 0; k < 4; k++) {
                PyObject *item = PyTuple_GET_ITEM(memo, k);
                Py_INCREF(item);
                PyTuple_SET_ITEM(updated, k, item);
            }
            Py_INCREF(steps);
            PyTuple_SET_ITEM(updated, 4, steps);
            Py_XSETREF(SLOT(written, off_plan), updated);
        }
    }
    args[1] = PyLong_FromLong(turn);
    if (args[1] == NULL)
        goto fail;
    args[0] = a;
    args[2] = position;
    args[3] = keep->cube;
    args[4] = keep->owner;
    args[5] = steps;
    Py_INCREF(a);
    Py_INCREF(position);
    Py_INCREF(keep->cube);
    Py_INCREF(keep->owner);
    Py_INCREF(steps);
    record = made(record_type, off_rec, args, 6);
    if (record == NULL)
        goto fail;
    if (PyList_Append(keep->records, record) < 0) {
        Py_DECREF(record);
        goto fail;
    }
    Py_DECREF(record);
    if (!hitmask) {   /* the opponent's side is unchanged: the next mover's */
        keep->kept = SLOT(position, off_pos_opp);   /* (a Position: its slot is set) */
        Py_INCREF(keep->kept);
    }
    Py_DECREF(steps);
    Py_DECREF(position);
    return 0;
fail:
    Py_XDECREF(steps);
    Py_DECREF(position);
    return -1;
}

/* The loop of run() and run_records(): plays from index *at, as the header
 * says; keep NULL for a validation. 0, or -1 with an error set (keep's
 * records may then have grown). *at gets the first index left to Python,
 * *danced the dances replayed. The side lists get the counts that changed. */
static int
run_loop(PyObject *actions, Py_ssize_t *at, PyObject *me_list, PyObject *opp_list, long turn,
         int marks, Keep *keep, Py_ssize_t *danced_out)
{
    int64_t a_side[SIDE], b_side[SIDE], a_was[SIDE], b_was[SIDE], keep_arr[2 * SIDE];
    Py_ssize_t i = *at, danced = 0;
    int failed = 0;
    if (!load_side(me_list, a_side) || !load_side(opp_list, b_side)) {
        *danced_out = 0;
        return 0;                           /* all of it for Python */
    }
    memcpy(a_was, a_side, sizeof a_side);
    memcpy(b_was, b_side, sizeof b_side);
    int64_t *me = a_side, *opp = b_side;
    int cur[MAX_STEPS], die[MAX_STEPS];

    while (i < PyList_GET_SIZE(actions)) {
        PyObject *a = PyList_GET_ITEM(actions, i);
        int is_dance = Py_TYPE(a) == dance_type;
        if (Py_TYPE(a) != play_type && !(is_dance && keep == NULL))
            break;                          /* (with records: a dance is Python's) */
        long player, d1, d2, memo_roll;
        if (!kernel_long(SLOT(a, is_dance ? off_dance_player : off_player), &player)
                || player != turn)
            break;                          /* out of turn (or no player) */
        PyObject *dice = SLOT(a, is_dance ? off_dance_dice : off_dice);
        if (dice == NULL || !PyTuple_CheckExact(dice) || PyTuple_GET_SIZE(dice) != 2
                || !kernel_long(PyTuple_GET_ITEM(dice, 0), &d1)
                || !kernel_long(PyTuple_GET_ITEM(dice, 1), &d2)
                || d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
            break;                          /* dice off the die */
        if (is_dance) {
            /* a dance on the bar, both entry points held: the turn passes */
            if (!me[25] || opp[d1] < 2 || opp[d2] < 2)
                break;
            int64_t *swap = me;
            me = opp;
            opp = swap;
            turn = 1 - turn;
            danced++;
            i++;
            continue;
        }
        PyObject *written = SLOT(a, off_written);
        if (SLOT(a, off_moves) != Py_None || written == NULL || Py_TYPE(written) != text_type)
            break;                          /* not its text's play: no memo */
        PyObject *memo = SLOT(written, off_plan);
        if (memo == NULL || !PyTuple_CheckExact(memo) || PyTuple_GET_SIZE(memo) < 3
                || !kernel_long(PyTuple_GET_ITEM(memo, 0), &memo_roll)
                || memo_roll != (d1 << 3 | d2)) {
            /* no memo for this roll: made here when the text is plain */
            if (shape_of_fn == NULL || (memo != NULL && memo != Py_None
                                        && !PyTuple_CheckExact(memo))
                    || SLOT(written, off_shape_of) != shape_of_fn)
                break;
            PyObject *made_memo = make_memo(SLOT(written, off_text), d1, d2);
            if (made_memo == NULL) {
                if (PyErr_Occurred())
                    PyErr_Clear();          /* Python meets it again */
                break;
            }
            Py_XSETREF(SLOT(written, off_plan), made_memo);
            memo = made_memo;
        }
        Py_ssize_t n = load_plan(PyTuple_GET_ITEM(memo, 1), cur, die);
        if (n == 0)
            break;                          /* fewer dice, no plan, or odd */
        PyObject *marked = NULL;
        if (marks) {
            marked = PyTuple_GET_ITEM(memo, 2);
            if (marked == Py_None)
                marked = NULL;
            else if (!PyAnySet_CheckExact(marked))
                break;
        }
        memcpy(keep_arr, me, SIDE * sizeof *me);
        memcpy(keep_arr + SIDE, opp, SIDE * sizeof *opp);
        int64_t off = me[0];
        uint32_t hitmask = 0;
        int nhits = 0, ok = play_steps(me, opp, cur, die, n, &hitmask, &nhits);
        if (ok)
            ok = marks_agree(hitmask, nhits, marked);
        if (ok == 1 && me[0] != off) {
            int left = 0;
            for (int p = 1; p < SIDE; p++)
                left |= me[p] != 0;
            ok = left;                      /* the last checker borne off: Python ends it */
        }
        if (ok != 1) {
            if (ok < 0)
                PyErr_Clear();              /* Python meets it again */
            memcpy(me, keep_arr, SIDE * sizeof *me);
            memcpy(opp, keep_arr + SIDE, SIDE * sizeof *opp);
            break;
        }
        if (keep != NULL) {
            Py_INCREF(memo);                /* (keep_record may replace the text's memo) */
            int kept = keep_record(keep, a, turn, keep_arr, written, memo, cur, die, n,
                                   hitmask);
            Py_DECREF(memo);
            if (kept < 0) {                 /* (no memory: the caller gives up) */
                failed = 1;
                break;
            }
        }
        int64_t *swap = me;                 /* as the opponent, next on roll, sees it */
        me = opp;
        opp = swap;
        turn = 1 - turn;
        i++;
    }
    if (store_side(me_list, a_side, a_was) < 0 || store_side(opp_list, b_side, b_was) < 0)
        return -1;
    *at = i;
    *danced_out = danced;
    return failed ? -1 : 0;
}

/* The arguments run() and run_records() share, (actions, i, me, opp, turn,
 * marks): 1 when the kernel reads them (*i, *turn, *marks), 0 when it
 * leaves them all to Python, -1 with an error set. */
static int
run_args(PyObject *const *args, Py_ssize_t *i, long *turn, int *marks)
{
    *i = PyLong_AsSsize_t(args[1]);
    if (*i == -1 && PyErr_Occurred())
        return -1;
    *marks = PyObject_IsTrue(args[5]);
    if (*marks < 0)
        return -1;
    return PyList_CheckExact(args[0]) && *i >= 0 && *i < PyList_GET_SIZE(args[0])
        && args[2] != args[3] && kernel_long(args[4], turn) && (*turn == 0 || *turn == 1);
}

static PyObject *
run(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "run(actions, i, me, opp, turn, marks)");
        return NULL;
    }
    if (play_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_play_run.bind(Play, PlayText, Dance) first");
        return NULL;
    }
    Py_ssize_t i, danced = 0;
    long turn;
    int marks, readable = run_args(args, &i, &turn, &marks);
    if (readable < 0)
        return NULL;
    if (!readable)
        return Py_BuildValue("(nn)", i, (Py_ssize_t)0);   /* all of it for Python */
    if (run_loop(args[0], &i, args[2], args[3], turn, marks, NULL, &danced) < 0)
        return NULL;
    return Py_BuildValue("(nn)", i, danced);
}

static PyObject *
run_records(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "run_records(actions, i, me, opp, turn, marks, records, "
                        "cube, owner, before, kept)");
        return NULL;
    }
    if (play_type == NULL || record_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_play_run.bind(Play, PlayText, Dance) and "
                        "bind_records(ActionRecord, Position) first");
        return NULL;
    }
    Py_ssize_t i, start, danced = 0;
    long turn;
    int marks, readable = run_args(args, &i, &turn, &marks);
    if (readable < 0)
        return NULL;
    start = i;
    if (!readable || !PyList_CheckExact(args[6])
            || (args[9] != Py_None && Py_TYPE(args[9]) != position_type)
            || (args[10] != Py_None && (!PyTuple_CheckExact(args[10])
                                        || PyTuple_GET_SIZE(args[10]) != SIDE)))
        return Py_BuildValue("(nOO)", i, args[9], args[10]);   /* all of it for Python */
    Keep keep = {args[6], args[7], args[8],
                 args[9] == Py_None ? NULL : args[9], args[10] == Py_None ? NULL : args[10]};
    Py_XINCREF(keep.before);
    Py_XINCREF(keep.kept);
    int result = run_loop(args[0], &i, args[2], args[3], turn, marks, &keep, &danced);
    PyObject *out = NULL;
    if (result == 0) {
        if (i == start)   /* nothing played: as they came */
            out = Py_BuildValue("(nOO)", i, args[9], args[10]);
        else
            out = Py_BuildValue("(nOO)", i, Py_None, keep.kept ? keep.kept : Py_None);
    }
    Py_XDECREF(keep.before);
    Py_XDECREF(keep.kept);
    return out;
}

static PyObject *
play_plan(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "play_plan(me, opp, plan, marked)");
        return NULL;
    }
    PyObject *me_list = args[0], *opp_list = args[1], *marked = args[3];
    int64_t me[SIDE], opp[SIDE], me_was[SIDE], opp_was[SIDE];
    int cur[MAX_STEPS], die[MAX_STEPS];
    if (me_list == opp_list || !load_side(me_list, me) || !load_side(opp_list, opp)) {
        PyErr_SetString(PyExc_ValueError, "two distinct lists of 26 ints");
        return NULL;
    }
    Py_ssize_t n = load_plan(args[2], cur, die);
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "a plan of 1..8 (from 1..25, die 1..6) steps");
        return NULL;
    }
    if (marked == Py_None)
        marked = NULL;
    else if (!PyAnySet_CheckExact(marked)) {
        PyErr_SetString(PyExc_TypeError, "marked: a set, a frozenset or None");
        return NULL;
    }
    memcpy(me_was, me, sizeof me);
    memcpy(opp_was, opp, sizeof opp);
    uint32_t hitmask = 0;
    int nhits = 0, ok = play_steps(me, opp, cur, die, n, &hitmask, &nhits);
    if (ok)
        ok = marks_agree(hitmask, nhits, marked);
    if (ok < 0)
        return NULL;
    if (!ok)
        Py_RETURN_NONE;                     /* the lists untouched */
    /* the points hit in the order play_plan finds them (a point is hit once) */
    PyObject *hits = PyTuple_New(nhits);
    if (hits == NULL)
        return NULL;
    int k = 0;
    uint32_t seen = 0;
    for (Py_ssize_t s = 0; s < n; s++) {
        int t = cur[s] - die[s];
        if (t > 0 && (hitmask & (1u << t)) && !(seen & (1u << t))) {
            /* the first step to land on t hit it: a later one lands on the mover's */
            seen |= 1u << t;
            PyObject *v = PyLong_FromLong(t);
            if (v == NULL) {
                Py_DECREF(hits);
                return NULL;
            }
            PyTuple_SET_ITEM(hits, k++, v);
        }
    }
    if (store_side(me_list, me, me_was) < 0 || store_side(opp_list, opp, opp_was) < 0) {
        Py_DECREF(hits);
        return NULL;
    }
    return hits;
}

static PyObject *
bind(PyObject *module, PyObject *args)
{
    PyObject *play, *text, *dance;
    Py_ssize_t p, d, mv, w, pl, dp, dd;
    if (!PyArg_ParseTuple(args, "O!O!O!:bind", &PyType_Type, &play, &PyType_Type, &text,
                          &PyType_Type, &dance))
        return NULL;
    if (slot_offset(play, "player", &p) < 0 || slot_offset(play, "dice", &d) < 0
            || slot_offset(play, "_moves", &mv) < 0 || slot_offset(play, "_written", &w) < 0
            || slot_offset(text, "plan", &pl) < 0 || slot_offset(dance, "player", &dp) < 0
            || slot_offset(dance, "dice", &dd) < 0)
        return NULL;
    if (play == dance) {
        PyErr_SetString(PyExc_TypeError, "Play and Dance must be two classes");
        return NULL;
    }
    Py_INCREF(play);
    Py_INCREF(text);
    Py_INCREF(dance);
    Py_XSETREF(play_type, (PyTypeObject *)play);
    Py_XSETREF(text_type, (PyTypeObject *)text);
    Py_XSETREF(dance_type, (PyTypeObject *)dance);
    off_dance_player = dp;
    off_dance_dice = dd;
    off_player = p;
    off_dice = d;
    off_moves = mv;
    off_written = w;
    off_plan = pl;
    Py_RETURN_NONE;
}

static PyObject *
bind_records(PyObject *module, PyObject *args)
{
    static const char *const names[6] = {"action", "turn", "position", "cube", "cube_owner",
                                         "steps"};
    PyObject *record, *position;
    Py_ssize_t offsets[6], me, opp;
    if (!PyArg_ParseTuple(args, "O!O!:bind_records", &PyType_Type, &record, &PyType_Type,
                          &position))
        return NULL;
    for (int k = 0; k < 6; k++)
        if (slot_offset(record, names[k], &offsets[k]) < 0)
            return NULL;
    if (slot_offset(position, "me", &me) < 0 || slot_offset(position, "opp", &opp) < 0)
        return NULL;
    /* every slot made here, and nothing else: no __dict__, no other slot */
    if (((PyTypeObject *)record)->tp_dictoffset || ((PyTypeObject *)position)->tp_dictoffset
            || ((PyTypeObject *)record)->tp_basicsize
               != (Py_ssize_t)(sizeof(PyObject) + 6 * sizeof(PyObject *))
            || ((PyTypeObject *)position)->tp_basicsize
               != (Py_ssize_t)(sizeof(PyObject) + 2 * sizeof(PyObject *))) {
        PyErr_SetString(PyExc_TypeError, "ActionRecord and Position must hold their slots only");
        return NULL;
    }
    Py_INCREF(record);
    Py_INCREF(position);
    Py_XSETREF(record_type, (PyTypeObject *)record);
    Py_XSETREF(position_type, (PyTypeObject *)position);
    memcpy(off_rec, offsets, sizeof offsets);
    off_pos_me = me;
    off_pos_opp = opp;
    Py_RETURN_NONE;
}

static PyObject *
bind_memo(PyObject *module, PyObject *shape_of)
{
    Py_ssize_t t, so;
    if (text_type == NULL) {
        PyErr_SetString(PyExc_TypeError, "bind(Play, PlayText, Dance) first");
        return NULL;
    }
    if (slot_offset((PyObject *)text_type, "text", &t) < 0
            || slot_offset((PyObject *)text_type, "shape_of", &so) < 0)
        return NULL;
    Py_INCREF(shape_of);
    Py_XSETREF(shape_of_fn, shape_of);
    off_text = t;
    off_shape_of = so;
    Py_RETURN_NONE;
}

static PyObject *
text_memo(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    long d1, d2;
    if (nargs != 3 || !kernel_long(args[1], &d1) || !kernel_long(args[2], &d2)) {
        PyErr_SetString(PyExc_TypeError, "text_memo(text, d1, d2): two ints");
        return NULL;
    }
    if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
        Py_RETURN_NONE;
    PyObject *memo = make_memo(args[0], d1, d2);
    if (memo == NULL) {
        if (PyErr_Occurred())
            return NULL;
        Py_RETURN_NONE;
    }
    return memo;
}

/* -- placed: the states before a game's actions (snapshots._placed) -- */

static PyObject *s_dice = NULL, *s_player = NULL, *s_kind = NULL, *s_double_word = NULL;
static PyObject *cube_limit = NULL, *zero_dice = NULL, *dice_pairs[7][7];

/* The names and constants placed() uses, made at the module's start: 0,
 * or -1 with an error. */
static int
placed_constants(void)
{
    static const KernelName names[] = {
        {&s_dice, "dice"}, {&s_player, "player"}, {&s_kind, "kind"},
        {&s_double_word, "double"},
    };
    if (KERNEL_INTERN(names) < 0 || (cube_limit = PyLong_FromLong(1L << 15)) == NULL)
        return -1;
    for (int hi = 1; hi <= 6; hi++)
        for (int lo = 1; lo <= hi; lo++)
            if ((dice_pairs[hi][lo] = Py_BuildValue("(ii)", hi, lo)) == NULL)
                return -1;
    zero_dice = Py_BuildValue("(ii)", 0, 0);
    return zero_dice == NULL ? -1 : 0;
}

/* The dice of a roll higher first as placed()'s key holds them: a new
 * reference; NULL with no error set for dice Python must look at (not a
 * tuple of two ints), NULL with an error set on a failure. */
static PyObject *
placed_dice(PyObject *a)
{
    PyObject *dice = PyObject_GetAttr(a, s_dice), *out = NULL;
    long d1, d2;
    if (dice == NULL)
        return NULL;
    if (PyTuple_CheckExact(dice) && PyTuple_GET_SIZE(dice) == 2
            && kernel_long(PyTuple_GET_ITEM(dice, 0), &d1)
            && kernel_long(PyTuple_GET_ITEM(dice, 1), &d2)) {
        if (d1 >= 1 && d1 <= 6 && d2 >= 1 && d2 <= 6)
            out = d1 >= d2 ? dice_pairs[d1][d2] : dice_pairs[d2][d1];
        else
            out = zero_dice;
        Py_INCREF(out);
    }
    Py_DECREF(dice);
    return out;
}

/* Whether placed() can read every record of `records` (1), else 0. */
static int
placed_readable(PyObject *records)
{
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(records); i++) {
        PyObject *r = PyList_GET_ITEM(records, i);
        if (Py_TYPE(r) != record_type)
            return 0;
        for (int k = 0; k < 5; k++)
            if (SLOT(r, off_rec[k]) == NULL)
                return 0;
    }
    return 1;
}

static PyObject *
placed(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "placed(records, rolls, offers, double, crawford, "
                        "score, length, jacoby, cache, put, make)");
        return NULL;
    }
    PyObject *records = args[0], *rolls = args[1], *offers = args[2], *double_type = args[3];
    PyObject *cache = args[8], *put = args[9], *make = args[10];
    if (record_type == NULL || !PyList_CheckExact(records) || !PyDict_CheckExact(cache))
        Py_RETURN_NONE;
    if (!placed_readable(records))
        Py_RETURN_NONE;
    /* the dice first: a roll Python must look at leaves the whole game to it */
    Py_ssize_t n = PyList_GET_SIZE(records);
    PyObject **dice = PyMem_Calloc(n ? n : 1, sizeof(PyObject *));
    PyObject *out = NULL, *a = NULL;
    int *roll = PyMem_Calloc(n ? n : 1, sizeof(int));
    if (dice == NULL || roll == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = PyList_GET_ITEM(records, i);
        if (SLOT(r, off_rec[2]) == Py_None || SLOT(r, off_rec[1]) == Py_None)
            continue;
        roll[i] = PyObject_IsInstance(SLOT(r, off_rec[0]), rolls);
        if (roll[i] < 0)
            goto done;
        if (roll[i]) {
            dice[i] = placed_dice(SLOT(r, off_rec[0]));
            if (dice[i] == NULL) {
                if (!PyErr_Occurred())
                    out = Py_NewRef(Py_None);
                goto done;
            }
        }
    }
    PyObject *list = PyList_New(0);
    if (list == NULL)
        goto done;
    int first_roll = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = PyList_GET_ITEM(records, i);
        PyObject *turn_r = SLOT(r, off_rec[1]);
        if (SLOT(r, off_rec[2]) == Py_None || turn_r == Py_None)
            continue;
        a = Py_NewRef(SLOT(r, off_rec[0]));
        PyObject *turn = Py_NewRef(turn_r), *offered = Py_False, *key, *value, *cube;
        long game_state = 1;   /* GAME_PLAYING */
        if (roll[i]) {
            if (first_roll) {
                game_state = 0;   /* GAME_NONE: gnubg's Match ID before the opening roll */
                first_roll = 0;
            }
        }
        else {
            int offer = PyObject_IsInstance(a, offers);
            if (offer == 0) {
                offer = PyObject_IsInstance(a, double_type);
                if (offer > 0) {
                    PyObject *kind = PyObject_GetAttr(a, s_kind);
                    offer = kind == NULL ? -1
                        : PyObject_RichCompareBool(kind, s_double_word, Py_NE);
                    Py_XDECREF(kind);
                }
            }
            if (offer < 0) {
                Py_DECREF(turn);
                goto fail;
            }
            if (offer) {
                Py_SETREF(turn, PyObject_GetAttr(a, s_player));
                if (turn == NULL)
                    goto fail;
                offered = Py_True;
            }
        }
        cube = SLOT(r, off_rec[3]);
        int small = PyObject_RichCompareBool(cube, cube_limit, Py_LE);
        if (small < 0) {
            Py_DECREF(turn);
            goto fail;
        }
        key = PyTuple_New(12);
        if (key == NULL) {
            Py_DECREF(turn);
            goto fail;
        }
        PyTuple_SET_ITEM(key, 0, Py_NewRef(small ? cube : cube_limit));
        PyTuple_SET_ITEM(key, 1, Py_NewRef(SLOT(r, off_rec[4])));
        PyTuple_SET_ITEM(key, 2, Py_NewRef(turn_r));
        PyTuple_SET_ITEM(key, 3, Py_NewRef(args[4]));
        PyTuple_SET_ITEM(key, 4, PyLong_FromLong(game_state));
        PyTuple_SET_ITEM(key, 5, turn);
        PyTuple_SET_ITEM(key, 6, Py_NewRef(offered));
        PyTuple_SET_ITEM(key, 7, PyLong_FromLong(0));
        PyTuple_SET_ITEM(key, 8, Py_NewRef(roll[i] ? dice[i] : zero_dice));
        PyTuple_SET_ITEM(key, 9, Py_NewRef(args[6]));
        PyTuple_SET_ITEM(key, 10, Py_NewRef(args[5]));
        PyTuple_SET_ITEM(key, 11, Py_NewRef(args[7]));
        value = PyDict_GetItemWithError(cache, key);
        if (value != NULL)
            Py_INCREF(value);
        else if (!PyErr_Occurred()) {
            PyObject *fresh = PyObject_Call(make, key, NULL);
            if (fresh != NULL) {
                value = PyObject_CallFunctionObjArgs(put, key, fresh, NULL);
                Py_DECREF(fresh);
            }
        }
        Py_DECREF(key);
        if (value == NULL)
            goto fail;
        if (value != Py_None) {
            PyObject *pair = PyTuple_Pack(2, r, value);
            if (pair == NULL || PyList_Append(list, pair) < 0) {
                Py_XDECREF(pair);
                Py_DECREF(value);
                goto fail;
            }
            Py_DECREF(pair);
        }
        Py_DECREF(value);
        Py_CLEAR(a);
    }
    out = list;
    goto done;
fail:
    Py_DECREF(list);
done:
    Py_XDECREF(a);
    if (dice != NULL)
        for (Py_ssize_t i = 0; i < n; i++)
            Py_XDECREF(dice[i]);
    PyMem_Free(dice);
    PyMem_Free(roll);
    return out;
}

static PyMethodDef methods[] = {
    {"bind_memo", bind_memo, METH_O,
     "bind_memo(shape_of): the loop makes the memo of a plain text read by shape_of."},
    {"text_memo", (PyCFunction)(void (*)(void))text_memo, METH_FASTCALL,
     "text_memo(text, d1, d2): the memo the loop makes of a plain text, or None (tests)."},
    {"bind_records", bind_records, METH_VARARGS,
     "bind_records(ActionRecord, Position): the classes run_records() makes."},
    {"bind", bind, METH_VARARGS,
     "bind(Play, PlayText, Dance): the classes whose slots run() reads."},
    {"run", (PyCFunction)(void (*)(void))run, METH_FASTCALL,
     "run(actions, i, me, opp, turn, marks) -> (the index of the first action left to "
     "Python, how many of those before it were dances)."},
    {"run_records", (PyCFunction)(void (*)(void))run_records, METH_FASTCALL,
     "run_records(actions, i, me, opp, turn, marks, records, cube, owner, before, kept) -> "
     "(the index of the first action left to Python, the position "
     "before it or None, the mover's side kept or None)."},
    {"placed", (PyCFunction)(void (*)(void))placed, METH_FASTCALL,
     "placed(records, rolls, offers, double, crawford, score, length, jacoby, cache, put, "
     "make) -> the game's [(record, value)] of snapshots._placed, or None: left to Python."},
    {"play_plan", (PyCFunction)(void (*)(void))play_plan, METH_FASTCALL,
     "play_plan(me, opp, plan, marked): resolve.play_plan's twin (for the tests)."},
    {"max_dice", (PyCFunction)(void (*)(void))max_dice, METH_FASTCALL,
     "max_dice(me, opp, d1, d2): plays.max_dice_playable's twin (-1: declined)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_play_run",
    "The replay's run of plays in C (optional; replay.py's Python loop is the reference).",
    -1, methods,
};

PyMODINIT_FUNC
PyInit__play_run(void)
{
    if (placed_constants() < 0)
        return NULL;
    return PyModule_Create(&module_def);
}

/* What gamao's C kernels share (each kernel is an extension module of its
 * own, compiled from its .c file, which includes this header): reading an
 * exact int, finding where a class keeps a field in its objects, and
 * interning the names a kernel uses. See gamao_cli/kernels.py. */
#ifndef GAMAO_KERNEL_SUPPORT_H
#define GAMAO_KERNEL_SUPPORT_H

#include <Python.h>
#include <structmember.h>

/* The object field at byte offset `off` of `obj` (a slot): borrowed, NULL
 * when the slot is unset. */
#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

/* An exact int that fits a long: 1 and *v, else 0 (no error left set).
 * An int of one digit (all the counts, dice and points) is read directly. */
static inline int
kernel_long(PyObject *o, long *v)
{
    int overflow;
    if (o == NULL || !PyLong_CheckExact(o))
        return 0;
#if PY_VERSION_HEX >= 0x030C0000
    if (PyUnstable_Long_IsCompact((PyLongObject *)o)) {
        *v = (long)PyUnstable_Long_CompactValue((PyLongObject *)o);
        return 1;
    }
#else
    {
        Py_ssize_t size = Py_SIZE(o);
        if (size >= -1 && size <= 1) {
            *v = size ? (long)size * (long)((PyLongObject *)o)->ob_digit[0] : 0;
            return 1;
        }
    }
#endif
    *v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || (*v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* The byte offset of `type`'s plain object slot `name` into *out: 0, or -1
 * with an error (no such field, or not a plain slot of this type's
 * layout: a property, a dict entry). */
static inline int
slot_offset(PyObject *type, const char *name, Py_ssize_t *out)
{
    PyObject *d = PyObject_GetAttrString(type, name);
    if (d == NULL)
        return -1;
    int ok = Py_TYPE(d) == &PyMemberDescr_Type;
    if (ok) {
        PyMemberDef *md = ((PyMemberDescrObject *)d)->d_member;
        ok = md->type == T_OBJECT_EX && md->offset > 0
            && (size_t)md->offset + sizeof(PyObject *)
               <= (size_t)((PyTypeObject *)type)->tp_basicsize
            && PyType_IsSubtype((PyTypeObject *)type, PyDescr_TYPE(d));
        if (ok)
            *out = md->offset;
    }
    Py_DECREF(d);
    if (!ok)
        PyErr_Format(PyExc_TypeError, "%s is not a plain object slot", name);
    return ok ? 0 : -1;
}

/* A name a kernel keeps interned, and where it keeps it. */
typedef struct {
    PyObject **slot;
    const char *text;
} KernelName;

/* Each of `n` names interned into its slot (at the module's start): 0, or
 * -1 with an error. */
static inline int
kernel_intern(const KernelName *names, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if ((*names[k].slot = PyUnicode_InternFromString(names[k].text)) == NULL)
            return -1;
    return 0;
}

#define KERNEL_INTERN(names) kernel_intern((names), sizeof (names) / sizeof (names)[0])

#endif

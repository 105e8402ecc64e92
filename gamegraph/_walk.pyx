# cython: language_level=3, boundscheck=False, wraparound=False
"""The per-state build's walk over plain states, compiled (an optional extension).

:func:`gamegraph.build.build` walks a game's states one at a time, asking the rules for
each state's outcomes and numbering every new target. Written in Python, that loop costs
about as much per option as a line of the rules; compiled, it costs a dictionary lookup
and a few appends, so a build costs about what a plain dictionary BFS over the same rules
does. The package works without this module (pip builds it where a C compiler is
present); :func:`gamegraph.build._walk_states` is the same walk in Python, and handles
every state this one leaves to it.

:func:`walk_plain` walks only *plain* states: not terminal, their outcomes an exact list
or tuple of :class:`~gamegraph.rules.Outcome`, each with an exact tuple or list of
:class:`~gamegraph.rules.Option` without a reward, every target hashable, and room under
``max_states`` for the new ones. At the first state that is not plain it stops, takes back what it recorded
for that state and hands back what the rules said about it, so that the Python walk records
it (or reports what is wrong with it) without asking the rules a second time. What it
records is exactly what the Python walk would, in the same lists and order: the values
are checked when the lists are read (:class:`gamegraph.build._Walked`).
"""

from cpython.ref cimport PyObject

cdef extern from "Python.h":
    # Declared without an exception value: a failed lookup returns NULL and leaves the
    # error set, and the walk hands the state to the Python walk, which meets it again.
    PyObject* PyDict_GetItemWithError(object, object)
    PyObject* PyErr_Occurred()
    void PyErr_Clear()
    Py_ssize_t PySequence_Fast_GET_SIZE(object)
    PyObject** PySequence_Fast_ITEMS(object)
    PyObject* PyTuple_GET_ITEM(object, Py_ssize_t)

#: What :func:`walk_plain` stopped at: the end of its stretch (or of the states), a
#: terminal state (its value handed back) or a state that is not plain (its outcomes).
DONE, TERMINAL, IRREGULAR = 0, 1, 2

#: This walk leaves an option with a reward to the Python walk (a walk compiled before
#: options had rewards lacks this name, and the build does not use it).
REWARDS = True


def walk_plain(walk, Py_ssize_t pos, Py_ssize_t end):
    """Walk the states from ``pos`` up to ``end`` while they are plain.

    ``walk`` is the build's :class:`gamegraph.build._Walk`: the states (also the queue),
    their numbers, the rules' two methods, the lists the walk appends to and
    ``max_states``. Returns ``(pos, kind, payload)``: the first state not walked, and
    why the walk stopped there (:data:`DONE`, :data:`TERMINAL` with the state's terminal
    value, or :data:`IRREGULAR` with what ``outcomes`` returned for it). If the rules
    raise, ``walk.at`` is the state they raised on.
    """
    cdef list states = walk.states
    cdef dict index = walk.index
    cdef list outcome_counts = walk.outcome_counts, probabilities = walk.probabilities
    cdef list option_counts = walk.option_counts, targets = walk.targets
    cdef list moves = walk.moves, passes = walk.passes
    cdef object terminal_value = walk.terminal_value, outcomes_of = walk.outcomes_of
    cdef type outcome_type = walk.outcome_type, option_type = walk.option_type
    cdef object no_reward = walk.no_reward
    cdef Py_ssize_t max_states = walk.max_states
    cdef Py_ssize_t n = len(states), n_outcomes, n_options, a, b
    cdef PyObject** items
    cdef PyObject** choices
    cdef PyObject* found
    cdef object state, value, outcomes, outcome, options, option, target, number
    try:
        while pos < end and pos < n:
            state = states[pos]
            value = terminal_value(state)
            if value is not None:
                return pos, TERMINAL, value
            outcomes = outcomes_of(state)
            if type(outcomes) is not list and type(outcomes) is not tuple:
                return pos, IRREGULAR, outcomes
            n_outcomes = PySequence_Fast_GET_SIZE(outcomes)
            if n_outcomes == 0:
                return pos, IRREGULAR, outcomes
            # The shape first, recording nothing, so that most irregular states stop here.
            items = PySequence_Fast_ITEMS(outcomes)
            for a in range(n_outcomes):
                outcome = <object>items[a]
                if type(outcome) is not outcome_type:
                    return pos, IRREGULAR, outcomes
                options = <object>PyTuple_GET_ITEM(outcome, 1)
                if type(options) is not tuple and type(options) is not list:
                    return pos, IRREGULAR, outcomes
                choices = PySequence_Fast_ITEMS(options)
                for b in range(PySequence_Fast_GET_SIZE(options)):
                    if type(<object>choices[b]) is not option_type:
                        return pos, IRREGULAR, outcomes
                    if <object>PyTuple_GET_ITEM(<object>choices[b], 3) is not no_reward:
                        return pos, IRREGULAR, outcomes
            # A state's hash or == may run the rules' code, which could change a list:
            # from here on each item is read through _item, which checks it again.
            outcome_counts.append(n_outcomes)
            for a in range(n_outcomes):
                outcome = _item(outcomes, a, n_outcomes, outcome_type)
                probabilities.append(<object>PyTuple_GET_ITEM(outcome, 0))
                options = <object>PyTuple_GET_ITEM(outcome, 1)
                n_options = PySequence_Fast_GET_SIZE(options)
                option_counts.append(n_options)
                for b in range(n_options):
                    option = _item(options, b, n_options, option_type)
                    target = <object>PyTuple_GET_ITEM(option, 0)
                    found = PyDict_GetItemWithError(index, target)
                    if found is NULL:
                        if PyErr_Occurred() is not NULL or n >= max_states:
                            PyErr_Clear()  # unhashable (or a hash that raises); too many
                            _undo(walk, a, b)
                            return pos, IRREGULAR, outcomes
                        number = n
                        index[target] = number
                        states.append(target)
                        n += 1
                    else:
                        number = <object>found
                    targets.append(number)
                    moves.append(<object>PyTuple_GET_ITEM(option, 1))
                    passes.append(<object>PyTuple_GET_ITEM(option, 2))
            pos += 1
    except BaseException:
        walk.at = pos
        raise
    return pos, DONE, None


cdef inline object _item(object sequence, Py_ssize_t k, Py_ssize_t size, type expected):
    """Item ``k`` of a list or tuple of ``size`` items, of type ``expected``: unless the
    rules changed the list since the walk checked it."""
    if PySequence_Fast_GET_SIZE(sequence) != size:
        raise RuntimeError("the rules changed a list of outcomes or options during the build")
    item = <object>PySequence_Fast_ITEMS(sequence)[k]
    if type(item) is not expected:
        raise RuntimeError("the rules changed a list of outcomes or options during the build")
    return item


cdef _undo(walk, Py_ssize_t a, Py_ssize_t b):
    """Take back what the current state recorded, so that the Python walk records it
    afresh: its outcome count, and its outcomes up to outcome ``a``, whose first ``b``
    options were recorded. The states it numbered keep their numbers: the Python walk
    meets the same targets in the same order."""
    cdef list option_counts = walk.option_counts
    cdef Py_ssize_t first_outcome = len(option_counts) - a - 1
    cdef Py_ssize_t recorded = sum(option_counts[first_outcome : first_outcome + a]) + b
    cdef list values
    del walk.outcome_counts[len(walk.outcome_counts) - 1]
    del walk.probabilities[first_outcome:]
    del option_counts[first_outcome:]
    for values in (walk.targets, walk.moves, walk.passes):
        del values[len(values) - recorded :]

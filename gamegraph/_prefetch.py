"""Software prefetch for the compiled kernels: ``prefetch(array, index)`` asks the processor
to bring ``array[index]`` into its cache and goes on at once.

A sweep over an Ur block reads, for each item, a handful of values at places only its
choices or moves tell: each read misses the cache, and the processor waits on it. Told
a few items ahead, it fetches them while the items before are worked on. A prefetch
never faults (an address past the end is simply ignored), changes no value and no
result: only when data arrives.

In plain Python :func:`prefetch` does nothing; :func:`compiled_prefetch` gives the numba
intrinsic (LLVM's ``llvm.prefetch``) that the kernels are compiled with.

>>> import numpy as np
>>> prefetch(np.zeros(4), 2) is None
True
"""

from __future__ import annotations


def prefetch(array, index) -> None:
    """Nothing, in plain Python (the compiled kernels use :func:`compiled_prefetch`)."""
    return None


def compiled_prefetch(numba):
    """The numba intrinsic ``prefetch(array, index)`` for a one-dimensional array: a read
    prefetch of ``array[index]`` into every cache level. ``numba`` is the imported module.
    """
    from llvmlite import ir
    from numba.core import cgutils, types

    @numba.extending.intrinsic
    def prefetch(typingctx, array, index):
        if not (isinstance(array, types.Array) and array.ndim == 1):
            return None
        if not isinstance(index, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            data = context.make_array(array)(context, builder, args[0])
            at = context.cast(builder, args[1], index, types.intp)
            pointer = cgutils.get_item_pointer(context, builder, array, data, [at],
                                               wraparound=False)  # fmt: skip
            byte, word = ir.IntType(8).as_pointer(), ir.IntType(32)
            kind = ir.FunctionType(ir.VoidType(), [byte, word, word, word])
            function = cgutils.get_or_insert_function(builder.module, kind, "llvm.prefetch")
            # read (0), keep in every cache level (3), data cache (1)
            builder.call(function, [builder.bitcast(pointer, byte), word(0), word(3), word(1)])
            return context.get_dummy_value()

        return types.none(array, index), codegen

    return prefetch

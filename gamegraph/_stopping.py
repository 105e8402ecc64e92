r"""When to stop sweeping: the distance to the fixed point that a sweep's change implies.

Let :math:`S` be one sweep (a Bellman backup of every state, Jacobi or Gauss-Seidel) and
:math:`\rho < 1` its contraction factor in the max norm, so that
:math:`\|S x - S y\| \le \rho \|x - y\|`, and :math:`v^*` its fixed point. A sweep
:math:`v_k = S v_{k-1}` changes no value by more than
:math:`\delta_k = \|v_k - v_{k-1}\|`. Then

.. math::

    \|v_{k-1} - v^*\| \le \|v_{k-1} - v_k\| + \|v_k - v^*\|
                      \le \delta_k + \rho \|v_{k-1} - v^*\|,
    \quad\text{so}\quad \|v_{k-1} - v^*\| \le \frac{\delta_k}{1 - \rho}

and one more contraction gives the bound on the values the sweep left:

.. math::

    \|v_k - v^*\| \le \rho \|v_{k-1} - v^*\| \le \frac{\delta_k \rho}{1 - \rho}.

The solvers do not know :math:`\rho` (it is how likely play is to stay in the component
for another turn, which the graph does not say). They estimate it by the observed
ratios :math:`\delta_k / \delta_{k-1}`, which approach the magnitude of the slowest mode
once it dominates, taking the larger of the last two (a single ratio can dip when
changes alternate in sign). So the rule is an estimate, not a guarantee: callers aim
well below the accuracy they promise, and keep their own floor for changes at the level
of rounding, where the ratios mean nothing.

:func:`near_fixed_point` is that test, written once for every solver: plain Python
that numba compiles as it stands (scalars in, a bool out), called from Python as it is
and from compiled kernels once compiled with them (:mod:`gamegraph._kernels` inlines
it).
"""

from __future__ import annotations


def near_fixed_point(change, rho, target):
    r"""Whether a sweep that changed no value by more than ``change`` left every value
    within ``target`` of the fixed point, by the estimate
    :math:`\text{change}\,\rho / (1 - \rho)` (see the module docstring).

    Parameters
    ----------
    change : float
        :math:`\delta_k`, the largest change of the last sweep (at least 0).
    rho : float
        The estimated contraction factor (at least 0): the larger of the last two ratios
        :math:`\delta_k / \delta_{k-1}`. At 1 or more the values are not contracting
        and nothing is near.
    target : float
        The distance wanted.

    Returns
    -------
    bool
        ``rho < 1`` and :math:`\text{change}\,\rho \le \text{target}\,(1 - \rho)`: the
        bound is compared multiplied out, without a division, so that ``rho`` close to 1
        cannot overflow it and the comparison is the one the compiled solver has always
        made (its values depend on it to the last bit).

    Examples
    --------
    Changes shrinking by half each sweep: the distance left is about the last change.

    >>> near_fixed_point(1e-9, 0.5, 1e-9), near_fixed_point(1e-9, 0.5, 0.9e-9)
    (True, False)
    >>> near_fixed_point(1e-9, 0.99, 1e-9)   # slow: about 99 times the change is left
    False
    >>> near_fixed_point(1e-20, 1.0, 1.0)    # not contracting
    False
    """
    return rho < 1.0 and change * rho <= target * (1.0 - rho)

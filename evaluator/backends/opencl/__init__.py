"""``opencl``: OpenCL C run through pyopencl on whatever OpenCL platform is present.

TVM generates the OpenCL C (its OpenCL *runtime* is not in the wheel, its codegen is); this
module lowers a scheduled PrimFunc with TVM's default TIR pipeline, splits host from device
code, reads the kernel launches off the host function (in order, with their arguments and
thread extents) and writes them with the source as a JSON artifact. The run half
(``runtime.py``) needs only pyopencl and NumPy, so a measurement machine with a
runtime-only TVM — or none — runs it.

A model graph (L3) cannot use the Relax VM here (the VM needs TVM's OpenCL runtime), but the
suite's graphs are a straight line of ``call_tir`` bindings once legalized and fused: every fused
PrimFunc is lowered as above (into one source), and the Relax ``main`` becomes a launch plan in
the same artifact — each call's kernels in binding order, their buffers renamed to the graph's
tensors (``main``'s parameters, its results, and intermediates allocated once as workspace).
Anything else in ``main`` (control flow, packed calls, constants) is a build error naming it.

Raw ``opencl-source`` entries become the same artifact: one kernel, the manifest's argument order
and launch sizes, compiled at build time so that a compile error or an impossible work-group
is reported as the entry's build error.

Parts: ``backend.py`` (the backend: ``OpenCLBuilder``'s target and build, ``OpenCLRunner``'s
device and loading, ``OpenCL`` the two), ``lowering.py`` (a scheduled module or a model graph's
Relax ``main`` to the JSON artifact), ``runtime.py`` (the device through pyopencl only: the
runner's, and the builder's compile check).
"""

from evaluator.backends.opencl.backend import OpenCL, OpenCLBuilder, OpenCLRunner
from evaluator.backends.opencl.lowering import lower_to_artifact

__all__ = ["OpenCL", "OpenCLBuilder", "OpenCLRunner", "lower_to_artifact"]

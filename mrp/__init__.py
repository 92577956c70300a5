"""mrp: score and convert meaning representation graphs (AMR, EDS, DM, PSD, UCCA).

The package is layered: ``mrp.codecs`` read and write files into the one graph
model of ``mrp.graph``; ``mrp.normalize`` applies the metric's normalization;
``mrp.score`` turns graph pairs into counts (with an exact solver); the
``mrp.cli`` modules are the command-line front ends.
"""

__version__ = "0.1.0"

from .graph import Edge, Graph, Node  # noqa: E402

__all__ = ["Graph", "Node", "Edge", "__version__"]

"""Error analysis you can look at: an HTML report of every scored pair (``mrp-score --explain``), and
pictures of graphs without scoring (``mrp-convert --to html``).

``model`` turns a pair and its metric's :class:`mrp.engine.detail.Detail` into views, ``layout`` places
the nodes, ``svg`` draws a side (or writes it as text when it is large), ``page`` writes the page,
``escape`` escapes every string where it is placed, ``assets`` holds the style and the script, and
``build`` goes from a scored run to the file.
"""

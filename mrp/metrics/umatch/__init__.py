"""juːmæʧ, the UMR shared task's figure (``compare_umr.pl`` of ufal/umrtools): the comparator's reading
and greedy node correspondence reproduced (compat), and the exact correspondence that maximises the
correct count among the node pairs the alignment allows."""

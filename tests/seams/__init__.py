"""The seam matrix: every kind of result through every front end (``test_seam_matrix.py``).

``inputs`` holds the pages, the template and the archive; ``rows`` the kinds of result and how
each is read from every shape of output; ``columns`` the front ends and how each is run.
"""

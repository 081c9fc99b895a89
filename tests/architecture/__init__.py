"""The project as a whole: layers, public paths, lint and types, both builds, examples, bench."""

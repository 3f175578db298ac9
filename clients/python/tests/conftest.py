# The pytest fixtures come from the helper's plugin (installed with it: the pytest11 entry point).

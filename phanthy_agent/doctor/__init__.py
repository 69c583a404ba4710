"""`phanthy doctor`: what is wrong with this machine or this configuration, in seconds."""

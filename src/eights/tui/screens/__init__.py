"""The app's screens, one a file: ``setup`` (a new game), ``table`` (the game), ``dialogs`` (the
choices the rules ask for), ``pass_device`` (hot-seat), ``round_end``, ``match_end``, ``rules``."""

"""Many games at once, without a screen: batches of random games (``simulate``), tournaments between
computer levels (``tournament``), a saved match's review (``review``), the statistics they quote (``stats``)
and the loop that plays a game out between computer players (``play``)."""

"""The game for research: observations and actions as numbers (``encoding``), PettingZoo's multi-agent
environment (``pettingzoo``), a batch of games stepped at once (``batch``), a single-seat Gymnasium
environment (``gymnasium``) and OpenSpiel's game and bots (``openspiel``). Each needs the ``research``
extra; the rest of the package never imports them."""

"""The game's forms, one module per thing entered: a round (``rounds``, with its ``cards`` and
``penalties``), a round kept offline (``sync``), a new game (``new_game``), and every other
change to a game (``changes``). Each form that changes a game owns its ``save()``: it calls the
``Game`` method (which locks, checks with the referee and stores) and puts the refusal on
the field at fault."""

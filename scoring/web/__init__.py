"""What the features' pages share: HTTP caching and the live part (``http``), how numbers,
cards and the referee's notes are said (``display``), the form fields and widgets
(``fields``), and what this phone remembers in its session (``device``)."""

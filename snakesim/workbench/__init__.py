"""The house-rule workbench: a local web page that edits a game's rules, plays rule sets side
by side and shows what they do (``snakesim workbench``)."""

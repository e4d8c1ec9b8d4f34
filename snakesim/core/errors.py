"""The one exception type for bad input.

Every message names the field at fault and what it accepts, in one line, so the command line
can print it as it is and exit with status 2.
"""


class InputError(ValueError):
    """A user-supplied value (option, variant, file, count) is not acceptable.

    Parameters
    ----------
    field : str
        The name of the field at fault, as the user wrote it (``start_coins``, ``--players``).
    message : str
        What is wrong and what is allowed.
    """

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")

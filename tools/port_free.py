"""Exit 0 when 127.0.0.1:PORT is free to serve on; otherwise say so in one line (for `make serve`)."""

import socket
import sys


def main(argv: list[str]) -> int:
    given = argv[0] if argv else "8000"
    if not given.isascii() or not given.isdigit() or not 1 <= int(given) <= 65535:
        print(f"make serve: PORT={given!r} is not a port number (1 to 65535)", file=sys.stderr)
        return 2
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", int(given)))
        except OSError:
            print(f"make serve: port {given} on 127.0.0.1 is busy; choose another, e.g. make serve PORT={int(given) + 1}",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""``python -m rules_lib.messages``: each Japanese message that is missing, stale or has other fields."""

from . import en, ja, source_sha256, stale


def main() -> int:
    found = stale()
    for key, why in found.items():
        english = en.MESSAGES.get(key)
        print(f"{key}: {why}" + (f" (the English now hashes to {source_sha256(english)})" if english else ""))
    print(f"{len(ja.MESSAGES) - sum(1 for k in found if k in ja.MESSAGES)} of {len(en.MESSAGES)} Japanese messages current")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Validate starve results against reports/result/result-schema.json.

usage: python3 tests/validate-result.py SCHEMA RESULT.json...
Exit 0 when every result is valid, 1 when one is not (each error printed as
"FILE: path/in/document: message"), 77 when python3-jsonschema is missing so
automake-style tests skip instead of failing.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed", file=sys.stderr)
    sys.exit(77)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    bad = 0
    for path in argv[2:]:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: {e}", file=sys.stderr)
            bad += 1
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors:
            where = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print(f"{path}: {where}: {e.message}", file=sys.stderr)
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

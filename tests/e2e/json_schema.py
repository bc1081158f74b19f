#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Validates ftlens's JSON against its schema in data/schema/ (FTL_SCHEMA_DIR).

usage: json_schema.py KIND FILE...   (KIND: report, sched, markers, oops)

Exits 1 naming the first document that does not validate; prints how many
did. fleet_oracle.py validates every document it reads the same way."""

import json
import os
import sys

import jsonschema

_validators = {}


def validate(kind, doc):
    """Raises jsonschema.ValidationError when doc is not a valid KIND."""
    if kind not in _validators:
        with open(os.path.join(os.environ["FTL_SCHEMA_DIR"], kind + ".json")) as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        _validators[kind] = jsonschema.Draft202012Validator(schema)
    _validators[kind].validate(doc)


def main(argv):
    for path in argv[1:]:
        try:
            with open(path) as f:
                validate(argv[0], json.load(f))
        except (ValueError, jsonschema.ValidationError) as e:
            print(f"{path}: {str(e).splitlines()[0]}")
            return 1
    print(len(argv) - 1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""A deliberately unsafe example service, for ash's example scan."""

import pickle
import subprocess

import yaml

DB_PASSWORD = "hunter2"


def run(command):
    # Shell injection: the command comes from the request.
    return subprocess.call(command, shell=True)


def load_session(blob):
    # Unpickling untrusted data runs code.
    return pickle.loads(blob)


def load_settings(text):
    return yaml.load(text)


def check(value):
    assert value is not None
    return eval(value)

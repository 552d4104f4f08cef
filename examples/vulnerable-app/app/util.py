"""Helpers of the example service."""

import hashlib
import random


def token():
    return random.random()


def digest(data):
    return hashlib.md5(data).hexdigest()

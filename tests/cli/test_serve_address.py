"""Where ``eights serve`` says its room links lead (issue 39): on every network (``--host 0.0.0.0``) an address
of this machine other devices reach, when it has one; on 127.0.0.1, localhost, said to open here only."""

from __future__ import annotations

import ipaddress
import socket

from eights.cli.serve import default_public_url, network_address


def test_on_every_network_links_use_this_machines_network_address() -> None:
    address = network_address()
    url, words = default_public_url("0.0.0.0", 8000)
    if address is None:  # a machine with only a loopback: said so
        assert url == "http://localhost:8000" and "no network address other devices can reach" in words
        return
    assert not ipaddress.ip_address(address).is_loopback
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family) as mine:
        mine.bind((address, 0))  # an address of this machine's own
    assert url == (f"http://[{address}]:8000" if ":" in address else f"http://{address}:8000")
    assert words.startswith(f"room links and QR codes use {address}")


def test_on_loopback_links_say_localhost_and_that_they_open_here_only() -> None:
    url, words = default_public_url("127.0.0.1", 8000)
    assert url == "http://localhost:8000" and "this machine only" in words

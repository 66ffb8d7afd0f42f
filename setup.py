"""Package discovery for the repository's layout, which pyproject.toml alone cannot express.

The repository root holds envs/, agents/, wrappers/, matches/, training/, web/ and cli/;
installed, they live under one namespace, tabletop.*, never as bare top-level packages. Every
package below those directories is found here, so adding a game (a new folder under envs/)
needs no edit of a package list. Folders without Python code (a game's data/) are namespace
packages, so that their files ship as package data by the glob in pyproject.toml.
"""

from setuptools import find_namespace_packages, setup

NAMESPACE_DIRS = {
    "tabletop.envs": "envs",
    "tabletop.agents": "agents",
    "tabletop.wrappers": "wrappers",
    "tabletop.matches": "matches",
    "tabletop.training": "training",
    "tabletop.web": "web",
    "tabletop.cli": "cli",
}


def discovered_packages() -> list[str]:
    """Each mapped package and every folder below its directory (caches excepted)."""
    packages = []
    for package, directory in NAMESPACE_DIRS.items():
        packages.append(package)
        found = find_namespace_packages(directory, exclude=["*__pycache__*"])
        packages += [f"{package}.{name}" for name in found]
    return packages


setup(package_dir=NAMESPACE_DIRS, packages=discovered_packages())

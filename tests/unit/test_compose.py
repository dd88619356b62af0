"""The production compose file: right images, health-gated start-up, and settings the library really reads.

No Docker engine runs on the build machines, so the file is checked as data: every ``AGENTX_*`` variable
given to the app must name a real field of :class:`~agentx_memory.settings.Settings`, and loading the
settings from that environment must point every store at its compose service.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from agentx_memory.settings import Settings

_ROOT = Path(__file__).resolve().parents[2]
_COMPOSE = _ROOT / "docker-compose.yml"
_ENV_EXAMPLE = _ROOT / "deploy" / "env.example"

# ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}; "$$" is a literal "$".
_INTERPOLATION = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}")
_ONLY_INTERPOLATION = re.compile(rf"^{_INTERPOLATION.pattern}$")

_APP_SETTINGS = {
    "AGENTX_GRAPH__BACKEND": "neo4j",
    "AGENTX_GRAPH__NEO4J_URI": "bolt://neo4j:7687",
    "AGENTX_GRAPH__NEO4J_USER": "neo4j",
    "AGENTX_GRAPH__NEO4J_PASSWORD": None,  # from the environment, checked below
    "AGENTX_POSTGRES__URL": None,
    "AGENTX_REDIS__URL": "redis://redis:6379/0",
}


def _load() -> dict[str, Any]:
    document = yaml.safe_load(_COMPOSE.read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


_DOC = _load()
_SERVICES: dict[str, Any] = _DOC["services"]


def _environment(service: str) -> dict[str, str]:
    raw = _SERVICES[service].get("environment", {})
    if isinstance(raw, list):
        return dict(item.split("=", 1) for item in raw)
    return {str(key): str(value) for key, value in raw.items()}


def _command(service: str) -> list[str]:
    raw = _SERVICES[service].get("command", [])
    return shlex.split(raw) if isinstance(raw, str) else [str(part) for part in raw]


def _healthcheck(service: str) -> str:
    test = _SERVICES[service]["healthcheck"]["test"]
    return test if isinstance(test, str) else " ".join(test)


def _container_ports(service: str) -> set[int]:
    ports: set[int] = set()
    for entry in _SERVICES[service].get("ports", []):
        if isinstance(entry, dict):
            ports.add(int(entry["target"]))
        else:
            # [ip:][host:]container[/proto]; interpolations may contain ':' too, so drop them first.
            plain = _INTERPOLATION.sub("x", str(entry))
            ports.add(int(plain.split("/")[0].rsplit(":", 1)[-1]))
    return ports


def _resolve(value: str) -> str:
    """What compose makes of ``value`` when no variable is set (defaults applied)."""

    def default(match: re.Match[str]) -> str:
        if match["op"] in (":?", "?"):
            raise AssertionError(f"{value!r} requires {match['name']} to be set")
        return match["arg"] or ""

    return _INTERPOLATION.sub(default, value.replace("$$", "\0")).replace("\0", "$")


def _option(command: list[str], flag: str) -> str:
    assert flag in command, f"{flag} missing from {command}"
    return command[command.index(flag) + 1]


def _compose_cli() -> list[str] | None:
    """A Docker Compose v2 command line (it parses without a Docker engine), or None."""
    candidates = []
    if docker := shutil.which("docker"):
        candidates.append([docker, "compose"])
    if standalone := shutil.which("docker-compose"):
        candidates.append([standalone])
    for cli in candidates:
        version = subprocess.run(
            [*cli, "version", "--short"], capture_output=True, text=True, timeout=30, check=False
        )
        if version.returncode == 0 and version.stdout.strip().lstrip("v").startswith("2."):
            return cli
    return None


def _field(model: type[BaseModel], key: str) -> FieldInfo | None:
    for name, info in model.model_fields.items():
        if key in (name, info.alias):
            return info
    return None


def _settings_field(variable: str) -> FieldInfo | None:
    """The Settings field an ``AGENTX_A__B`` variable sets, following nested models; None if none."""
    model: type[BaseModel] = Settings
    parts = variable.removeprefix("AGENTX_").lower().split("__")
    for depth, part in enumerate(parts):
        info = _field(model, part)
        if info is None:
            return None
        if depth == len(parts) - 1:
            return info
        nested = info.annotation
        if not (isinstance(nested, type) and issubclass(nested, BaseModel)):
            return None
        model = nested
    return None


def test_compose_cli_accepts_the_file() -> None:
    cli = _compose_cli()
    if cli is None:
        pytest.skip("no Docker Compose v2 CLI on PATH (`docker compose` or `docker-compose`)")
    result = subprocess.run(
        [*cli, "--file", str(_COMPOSE), "config", "--quiet"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_services_and_images() -> None:
    assert {"neo4j", "postgres", "redis", "app"} <= set(_SERVICES)
    assert re.fullmatch(r"neo4j:5\.26(\.\d+)?-community", _SERVICES["neo4j"]["image"])
    assert re.fullmatch(r"pgvector/pgvector:(pg17|0\.\d+\.\d+-pg17)", _SERVICES["postgres"]["image"])
    assert re.fullmatch(r"redis:7(\.\d+)*-alpine", _SERVICES["redis"]["image"])


def test_neo4j_exposes_browser_and_bolt() -> None:
    assert {7474, 7687} <= _container_ports("neo4j")


def test_neo4j_password_comes_from_the_environment() -> None:
    auth = _environment("neo4j")["NEO4J_AUTH"]
    user, _, password = auth.partition("/")
    if _ONLY_INTERPOLATION.match(auth):  # the whole NEO4J_AUTH from the environment
        return
    assert user == "neo4j"
    assert _ONLY_INTERPOLATION.match(password), f"hard-coded Neo4j password in NEO4J_AUTH={auth!r}"
    # The app must log in with the same password the server was initialised with.
    assert _environment("app")["AGENTX_GRAPH__NEO4J_PASSWORD"] == password


def test_neo4j_memory_is_configurable() -> None:
    env = _environment("neo4j")
    for setting in (
        "NEO4J_server_memory_heap_initial__size",
        "NEO4J_server_memory_heap_max__size",
        "NEO4J_server_memory_pagecache_size",
    ):
        assert _INTERPOLATION.search(env[setting]), f"{setting} is not taken from the environment"


def test_postgres_credentials_come_from_the_environment() -> None:
    env = _environment("postgres")
    for name in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"):
        assert _ONLY_INTERPOLATION.match(env[name]), f"{name}={env[name]!r} is hard-coded"
    url = _environment("app")["AGENTX_POSTGRES__URL"]
    expected = f"postgresql://{env['POSTGRES_USER']}:{env['POSTGRES_PASSWORD']}@postgres:5432/"
    assert url == expected + env["POSTGRES_DB"]


def test_redis_evicts_lru_and_persists() -> None:
    command = _command("redis")
    assert command[0] == "redis-server"
    assert _option(command, "--maxmemory-policy") == "allkeys-lru"
    assert _option(command, "--appendonly") == "yes"
    assert _INTERPOLATION.search(_option(command, "--maxmemory")), "--maxmemory is not configurable"
    assert re.fullmatch(r"\d+(mb|gb)", _resolve(_option(command, "--maxmemory")))


def test_healthchecks() -> None:
    assert "cypher-shell" in _healthcheck("neo4j")
    assert "pg_isready" in _healthcheck("postgres")
    assert "redis-cli ping" in _healthcheck("redis")


def test_app_waits_for_healthy_stores() -> None:
    depends_on = _SERVICES["app"]["depends_on"]
    assert isinstance(depends_on, dict)
    for store in ("neo4j", "postgres", "redis"):
        assert depends_on[store]["condition"] == "service_healthy"


def test_app_builds_from_the_deploy_dockerfile() -> None:
    build = _SERVICES["app"]["build"]
    assert (_ROOT / build.get("context", ".") / build["dockerfile"]).is_file()


def test_app_sets_every_store_setting() -> None:
    env = _environment("app")
    for name, value in _APP_SETTINGS.items():
        assert name in env, f"app does not set {name}"
        if value is not None:
            assert env[name] == value


@pytest.mark.parametrize("variable", sorted(v for v in _environment("app") if v.startswith("AGENTX_")))
def test_app_variable_is_a_real_setting(variable: str) -> None:
    assert _settings_field(variable) is not None, f"{variable} sets no Settings field"


def test_field_walk_rejects_unknown_names() -> None:
    assert _settings_field("AGENTX_POSTGRES__SCHEMA") is not None  # alias of schema_name
    assert _settings_field("AGENTX_POSTGRES__SCHEMA_NAME") is not None
    assert _settings_field("AGENTX_GRAPH__NEO4J_URL") is None
    assert _settings_field("AGENTX_REDIS__URL__HOST") is None
    assert _settings_field("AGENTX_NEO4J_URI") is None


def test_settings_load_from_the_app_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in os.environ if n.startswith("AGENTX_")]:
        monkeypatch.delenv(name)
    for name, value in _environment("app").items():
        monkeypatch.setenv(name, _resolve(value))
    settings = Settings()
    assert settings.graph.backend == "neo4j"
    assert settings.graph.neo4j_uri == "bolt://neo4j:7687"
    assert settings.graph.neo4j_user == "neo4j"
    password = _resolve(_environment("neo4j")["NEO4J_AUTH"]).partition("/")[2]
    assert settings.graph.neo4j_password.get_secret_value() == password
    assert settings.postgres.url is not None
    assert settings.postgres.url.startswith("postgresql://")
    assert settings.redis.url == "redis://redis:6379/0"
    assert not settings.uses_embedded


def test_env_example_documents_every_variable() -> None:
    text = _COMPOSE.read_text(encoding="utf-8").replace("$$", "")  # "$$" is the container's, not compose's
    used = {m["name"] for m in _INTERPOLATION.finditer(text)}
    documented = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", _ENV_EXAMPLE.read_text(encoding="utf-8"), re.M))
    assert used - documented == set(), "variables used in docker-compose.yml but missing from env.example"


# -- Celery: worker, beat and their broker -----------------------------------------------------------


def test_the_broker_never_evicts() -> None:
    command = _command("broker")
    assert _option(command, "--maxmemory-policy") == "noeviction"
    assert _option(command, "--appendonly") == "yes"
    assert "redis-cli ping" in _healthcheck("broker")


@pytest.mark.parametrize("service", ["worker", "beat"])
def test_worker_and_beat_are_wired_like_the_app(service: str) -> None:
    env = _environment(service)
    for name, value in _APP_SETTINGS.items():
        assert name in env, f"{service} does not set {name}"
        if value is not None:
            assert env[name] == value
    assert env["AGENTX_MAINTENANCE__BROKER_URL"] == "redis://broker:6379/0"
    assert all(_settings_field(name) is not None for name in env if name.startswith("AGENTX_"))
    depends_on = _SERVICES[service]["depends_on"]
    for store in ("neo4j", "postgres", "redis", "broker"):
        assert depends_on[store]["condition"] == "service_healthy"
    assert _SERVICES[service]["image"] == _SERVICES["app"]["image"]


def test_worker_and_beat_commands_and_healthchecks() -> None:
    assert _command("worker")[:4] == ["celery", "-A", "workers", "worker"]
    assert _command("beat")[:4] == ["celery", "-A", "workers", "beat"]
    assert "inspect ping" in _healthcheck("worker")
    assert "redbeat::lock" in _healthcheck("beat")
    build = _SERVICES["worker"]["build"]
    dockerfile = (_ROOT / build.get("context", ".") / build["dockerfile"]).read_text(encoding="utf-8")
    assert "COPY workers ./workers" in dockerfile  # the wheel carries workers/

"""Every paper system is listed by ``bemula systems``: installed or not, version, needs."""

from __future__ import annotations

from pathlib import Path

import pytest

from bemula.systems.adapters import lightmem as lightmem_adapter
from bemula.systems.adapters.common import EmbeddingEndpoint, Endpoint, package_version
from bemula.systems.base import SystemContext, SystemUnavailable, create_system, registry

#: system -> (distribution, the version series its adapter drives)
PAPER_SYSTEMS = {
    "mem0": ("mem0ai", "1.0."),
    "simplemem": ("simplemem", ""),
    "a-mem": ("a-mem", ""),
    "langmem": ("langmem", ""),
    "mem0-current": ("mem0ai", "2.2."),
    "cognee": ("cognee", "1.6."),
}


def test_every_paper_system_is_listed_with_version_and_needs() -> None:
    systems = registry()
    for name, (distribution, series) in PAPER_SYSTEMS.items():
        info = systems[name]
        assert info.needs, name
        version = package_version(distribution)
        if version and version.startswith(series):
            assert info.available and info.version == version, name
        else:
            assert not info.available and "pip install" in info.install_hint, name
    assert "lightmem" in systems


def test_the_two_mem0_series_point_to_each_other_when_the_other_is_installed() -> None:
    systems = registry()
    version = package_version("mem0ai")
    if version.startswith("1.0."):
        assert "own environment" in systems["mem0-current"].install_hint
    elif version.startswith("2.2."):
        assert "mem0-current" in systems["mem0"].install_hint
    else:
        pytest.skip("mem0ai is not installed here")


def test_lightmem_without_the_package_is_unavailable_with_its_install_hint(tmp_path: Path) -> None:
    if lightmem_adapter.lightmem_installed():
        pytest.skip("LightMem is installed here")
    info = registry()["lightmem"]
    assert not info.available and "zjunlp/LightMem" in info.install_hint
    with pytest.raises(SystemUnavailable, match="placeholder"):
        create_system("lightmem", SystemContext(workdir=tmp_path))


def test_lightmem_config_keeps_every_store_in_the_instance_folder(tmp_path: Path) -> None:
    config = lightmem_adapter.lightmem_config(
        tmp_path / "lightmem",
        Endpoint(base_url="http://127.0.0.1:1/v1", model="m"),
        EmbeddingEndpoint(base_url="http://127.0.0.1:2/v1", model="e", dims=64),
    )
    qdrant = config["embedding_retriever"]["configs"]
    assert qdrant["path"] == str(tmp_path / "lightmem" / "qdrant")
    assert qdrant["on_disk"] is True  # LightMem deletes a non-on_disk path at start
    assert qdrant["embedding_model_dims"] == 64
    # no "dimensions" request parameter: endpoints serving a fixed-size model may refuse it
    assert "embedding_dims" not in config["text_embedder"]["configs"]
    assert config["history_db_path"] == str(tmp_path / "lightmem" / "history.db")
    # nothing that would load weights from the hub
    assert config["pre_compress"] is False and config["topic_segment"] is False
    assert config["memory_manager"]["configs"]["openai_base_url"] == "http://127.0.0.1:1/v1"

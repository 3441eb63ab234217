"""The Python CDK app of app.py, synthesized with the wheel: its template as a Python user gets it.

Explicit checks of what the library promises a Python app (the planned server, its encrypted volume, the mount in the
compute node's user data, NFS opened to the node) and a snapshot of the whole template, asset hashes scrubbed, that
fails when anything else moves (`run.sh --snapshot-update` rewrites it after a change meant to move it).
"""

from __future__ import annotations

import json
import re
from typing import Any

import aws_cdk as cdk
import pytest
from app import SCRATCH_GROUP, build
from aws_cdk.assertions import Match, Template
from hpc_storage.storage_server import Backend, FsType, StorageServer

# A 64-digit hex asset hash, which the embedded handler bundles decide; the snapshot should not move with them.
ASSET_HASH = re.compile(r"[0-9a-f]{64}")


@pytest.fixture(scope="module")
def template() -> Template:
    return Template.from_stack(build(cdk.App()))


def resources(template: Template, kind: str) -> dict[str, Any]:
    return template.find_resources(kind)


def test_the_server_is_the_planned_m4_with_one_encrypted_st1_volume(template: Template) -> None:
    servers = [r for r in resources(template, "AWS::EC2::Instance").values() if r["Properties"]["InstanceType"] == "m4.2xlarge"]
    assert len(servers) == 1
    template.resource_count_is("AWS::EC2::Volume", 1)
    template.has_resource_properties("AWS::EC2::Volume", {"VolumeType": "st1", "Size": 5120, "Encrypted": True})


def test_the_closed_sets_are_python_enums() -> None:
    # jsii gives a Python app an enum where a union of string literals would be a plain str.
    storage = build(cdk.App()).node.find_child("Storage")
    assert isinstance(storage, StorageServer)
    assert storage.plan.backend is Backend.EBS
    assert storage.fs_type is FsType.NFS4


def test_the_compute_node_mounts_the_export_from_its_user_data(template: Template) -> None:
    compute = [r for r in resources(template, "AWS::EC2::Instance").values() if r["Properties"]["InstanceType"] == "c5.2xlarge"]
    assert len(compute) == 1
    user_data = json.dumps(compute[0]["Properties"]["UserData"])
    assert "/data" in user_data
    assert "nfs4" in user_data


def test_the_compute_node_may_read_its_server_mount_record(template: Template) -> None:
    policies = json.dumps(resources(template, "AWS::IAM::Policy"))
    assert "ssm:GetParametersByPath" in policies
    assert "parameter/storage-server/pyhpc/storage/storage1/mount" in policies


def test_the_imported_server_is_mounted_and_admits_the_node(template: Template) -> None:
    compute = [r for r in resources(template, "AWS::EC2::Instance").values() if r["Properties"]["InstanceType"] == "c5.2xlarge"]
    assert "10.0.1.20:/export/data /scratch nfs4 nfsvers=4.1,hard,_netdev,nosuid,nodev" in json.dumps(compute[0]["Properties"]["UserData"])
    template.has_resource_properties(
        "AWS::EC2::SecurityGroupIngress",
        {"GroupId": SCRATCH_GROUP, "IpProtocol": "tcp", "FromPort": 2049, "ToPort": 2049},
    )


def test_nfs_is_opened_to_the_compute_node(template: Template) -> None:
    template.has_resource_properties(
        "AWS::EC2::SecurityGroupIngress",
        {"IpProtocol": "tcp", "FromPort": 2049, "ToPort": 2049, "SourceSecurityGroupId": Match.any_value()},
    )


def test_the_template_matches_its_snapshot(template: Template, snapshot: Any) -> None:
    text = ASSET_HASH.sub("<asset hash>", json.dumps(template.to_json(), indent=1, sort_keys=True))
    assert text == snapshot

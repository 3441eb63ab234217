"""A Python CDK app that uses the library as a Python user would: the wheel jsii-pacmak builds, imported by its module.

A VPC, an EBS storage server planned from 5 TiB, and a compute node that mounts it at boot and may read its record;
beside it a server another app deployed, imported by its attributes and mounted too. `cdk synth --app "python app.py"`
synthesizes it; test_app.py synthesizes it in process and checks the template.
"""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_ec2 as ec2
from hpc_storage.storage_server import StorageServer

# The imported server's security group, as the app that deployed it would give it.
SCRATCH_GROUP = "sg-0123456789abcdef0"


def build(app: cdk.App) -> cdk.Stack:
    """The stack: the README's library example, in Python."""
    stack = cdk.Stack(app, "PyCluster", env=cdk.Environment(account="123456789012", region="eu-west-1"))
    vpc = ec2.Vpc(stack, "Vpc", max_azs=2, nat_gateways=1)
    compute = ec2.Instance(
        stack,
        "Compute",
        vpc=vpc,
        instance_type=ec2.InstanceType("c5.2xlarge"),
        machine_image=ec2.MachineImage.generic_linux({"eu-west-1": "ami-0123456789abcdef0"}),
        require_imdsv2=True,
    )
    storage = StorageServer(stack, "Storage", vpc=vpc, capacity_ti_b=5, cluster_name="pyhpc")
    storage.mount_on(compute)
    storage.grant_mount(compute)
    scratch = StorageServer.from_storage_server_attributes(
        stack,
        "Scratch",
        cluster_name="pyhpc",
        server_name="scratch",
        mount_address="10.0.1.20",
        export_path="/export/data",
        mount_point="/scratch",
        mount_options="nfsvers=4.1,hard,_netdev",
        security_group=ec2.SecurityGroup.from_security_group_id(stack, "ScratchGroup", SCRATCH_GROUP),
    )
    scratch.mount_on(compute)
    cdk.CfnOutput(stack, "StorageAddress", value=storage.mount_address)
    return stack


if __name__ == "__main__":
    app = cdk.App()
    build(app)
    app.synth()

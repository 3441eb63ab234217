/**
 * The change matrix's rows of the network, the clients and their mounts, and the keys of storage that exists already.
 * Assembled by test/unit/guard-matrix.cases.ts.
 */
import type { ContextKey } from '../../lib/context';
import { EC2, SUBNET_A1, SUBNET_A2, SUBNET_B1, VPC, type Row } from './guard-matrix-shared.cases';

export const CLIENT_ROWS = {
  vpcId: [
    { name: 'a new VPC -> a looked-up VPC', change: { ...VPC } },
  ],
  vpcFrom: [
    { name: 'a new VPC -> another stack\'s VPC', change: { vpcFrom: 'StorageServer-hpc1-home' } },
  ],
  availabilityZone: [
    { name: 'a new VPC -> a new VPC in a chosen zone', change: { availabilityZone: 'us-east-1b' } },
  ],
  subnetId: [
    { name: 'another subnet in the same zone', base: { ...VPC, subnetId: SUBNET_A1 }, change: { subnetId: SUBNET_A2 } },
    { name: 'a subnet in another zone', base: { ...VPC, subnetId: SUBNET_A1 }, change: { subnetId: SUBNET_B1 } },
    { name: 'the first private subnet named explicitly', base: { ...VPC }, change: { subnetId: SUBNET_A1 } },
  ],
  clientCidrs: [{ name: 'client CIDRs', change: { clientCidrs: '10.0.0.0/17,10.0.128.0/17' } }],
  // The server's settings alone change: exportfs -ra applies the export's new line live.
  rootClientCidrs: [
    { name: 'a root client for a copy', change: { rootClientCidrs: '10.0.1.5/32' }, backends: EC2 },
    { name: 'the root client removed after the copy', base: { rootClientCidrs: '10.0.1.5/32' }, change: { rootClientCidrs: undefined }, backends: EC2 },
  ],
  clientSecurityGroupId: [{ name: 'a client security group', change: { clientSecurityGroupId: 'sg-0123456789abcdef0' } }],
  allowPublicClientCidrs: [
    { name: 'public client CIDRs with the opt-in', change: { allowPublicClientCidrs: 'true', clientCidrs: '11.0.1.0/24' } },
  ],
  clientTagKey: [{ name: 'client tag key', change: { clientTagKey: 'nodes' } }],
  mountPoint: [{ name: 'another mount point', change: { mountPoint: '/scratch' } }],
  mountRoots: [{ name: 'another set of mount roots', change: { mountRoots: '/data,/projects', mountPoint: '/projects/shared' } }],
  allowHomeMountPoint: [{ name: 'mount under /home', change: { allowHomeMountPoint: 'true', mountPoint: '/home/shared' } }],
  // The mount record's options change, so registration rewrites the parameter; nothing that holds data is touched.
  nconnect: [
    { name: 'one connection per client mount (no nconnect)', change: { nconnect: '1' }, backends: EC2 },
    { name: 'eight connections per client mount', change: { nconnect: '8' }, backends: EC2 },
  ],
  // The client-mount document's default parameter and the association's value: nothing of the server changes.
  clientReadAheadKiB: [
    { name: 'client read-ahead left to the kernel', change: { clientReadAheadKiB: '0' } },
    { name: 'client read-ahead of 4 MiB', change: { clientReadAheadKiB: '4096' } },
  ],
  clientMount: [{ name: 'no client-mount association', change: { clientMount: 'false' } }],
  existingStorage: [], // another stack, of no server and no guard: nothing of a server's stack changes by it
  storageSecurityGroupId: [], // read beside existingStorage alone, refused beside a server's keys
} satisfies { readonly [K in ContextKey]?: readonly Row[] };

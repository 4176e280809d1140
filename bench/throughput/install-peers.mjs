// Installs the throughput bench's pinned peers and load generator into bench/.peers (npm ci from
// bench/throughput/peers/package-lock.json; nothing when the installed lock already matches).
// Called by scripts/test-bench/peers.sh, so CI has them before the bench's smoke run.
import { installPeers, PEERS_DIR } from './lib/peers.mjs';

installPeers();
console.log(`throughput bench peers: ready in ${PEERS_DIR}`);

// stdout and stderr that nobody reads any more: `svc serve 2>&1 | head`, a log shipper
// that died, a terminal closed. Node emits a failed write to them (EPIPE, EIO) as an
// 'error' with no listener, which ends the process: a server would go down for want of a
// reader of its messages. The messages are lost, as they would be anyway; the logs on disk stay.
export function outliveLostOutput() {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
}

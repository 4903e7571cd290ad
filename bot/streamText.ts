/**
 * All of a stream's text, read as a stream until it ends (`exhale op NAME -`). Not
 * `readFileSync(0)`: on a pipe that Node (or the shell before it) left non-blocking, a synchronous
 * read fails with EAGAIN whenever the writer has not written yet, so a slow or large pipe failed.
 */
export async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A channel's configuration that cannot work (told as a sentence, exit code 2). In its own file
 * so the CLI can recognise it without loading the channels (grammY) for every command.
 */
export class ChannelConfigError extends Error {
  override readonly name = 'ChannelConfigError';
}

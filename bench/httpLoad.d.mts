/** See httpLoad.mjs. */
export interface LoadRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}
/** One round: `calls` requests with `inFlight` in flight. */
export interface LoadRound {
  inFlight: number;
  calls: number;
}
export declare function throughput(
  call: () => Promise<unknown>,
  inFlight: number,
  calls: number,
): Promise<number>;
export declare function inLoopClient(load: LoadRequest): (round: LoadRound) => Promise<number>;
export declare function leanClient(load: LoadRequest): (round: LoadRound) => Promise<number>;
export declare class LoadWorker {
  constructor(load: LoadRequest);
  round(round: LoadRound): Promise<number>;
  close(): Promise<void>;
}

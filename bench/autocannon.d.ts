/** The part of autocannon's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  export interface RequestData {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface RequestOptions extends RequestData {
    setupRequest?: (request: RequestData, context: Record<string, unknown>) => RequestData;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    requests?: RequestOptions[];
  }
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}

/**
 * In-process signal that jobs were queued, sent once the enqueueing transaction has committed. The inline
 * worker listens, so a job queued by a request in the same process (a callback delivery above all) starts
 * at once instead of after the worker's next poll. Other processes do not hear it: a separate worker
 * process (WORKER=off on the API) still finds the job by polling.
 */
type Listener = (type: string) => void;

const listeners = new Set<Listener>();

/** One announcer per job type, so afterCommit() runs it once per transaction however many jobs it queued. */
const announcers = new Map<string, () => void>();

export function announcerOf(type: string): () => void {
  let announce = announcers.get(type);
  if (!announce) {
    announce = () => {
      for (const listener of listeners) listener(type);
    };
    announcers.set(type, announce);
  }
  return announce;
}

/** Returns the function that stops listening. */
export function onJobsQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

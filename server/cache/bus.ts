/**
 * Change notifications between the parts of one instance — and, with Redis
 * (see the scale-out work), between instances. Caches subscribe to a topic and
 * drop or reload what they hold when a write anywhere publishes it.
 */
export type Topic = 'options' | 'channels' | 'tokens' | 'users' | 'models' | 'subscriptions';

export interface ChangeBus {
  publish(topic: Topic, payload?: string): void;
  subscribe(topic: Topic, listener: (payload?: string) => void): () => void;
  close(): Promise<void>;
}

export function createMemoryBus(): ChangeBus {
  const listeners = new Map<Topic, Set<(payload?: string) => void>>();
  return {
    publish(topic, payload) {
      for (const l of listeners.get(topic) ?? []) l(payload);
    },
    subscribe(topic, listener) {
      let set = listeners.get(topic);
      if (!set) listeners.set(topic, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}

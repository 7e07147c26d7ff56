package io.ds2.core.scaler;

/**
 * Where one job's {@link SavedState} lives between controller instances: the resource's annotations
 * for the operator, memory for the CLI and tests.
 */
public interface StateStore {
  /** What an earlier instance saved ({@link SavedState#EMPTY} if nothing or unreadable). */
  SavedState load();

  /** Saves the state; a store may skip a save that changes nothing. */
  void save(SavedState state);

  /** A store in memory: what one loop saves, the next one loads. */
  static StateStore inMemory() {
    return new StateStore() {
      private SavedState saved = SavedState.EMPTY;

      @Override
      public synchronized SavedState load() {
        return saved;
      }

      @Override
      public synchronized void save(SavedState state) {
        saved = state;
      }
    };
  }
}

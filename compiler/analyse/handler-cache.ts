// What `svc tread` keeps of each controller handler it described, beside each route
// file's whole analysis (file-cache.ts). An edit to a route file, or to one controller
// it names, analyses that route file again; describing a handler asks the type checker
// about every type it mentions: a third of a rebuild's analysis at 1,000 routes (a
// route file of 100 registrations). A handler whose class file, and what that file
// imports, did not change is taken from here instead, with the component bodies its
// schemas reach.
//
// Kept only from a route file analysed without a single problem: an entry then has no
// warning that a build taking it would have to repeat.
import { ANY_FILE } from './import-graph.ts';
import type { CodeHandler } from './resolve/handler.ts';
import type { Component } from './schema/registry.ts';
import { forEachRef, handlerSchemas } from './schema/refs.ts';

/** A description made in this build: by the key handler.ts gives it, from the class in `classFile` (absolute). */
export interface Described {
  key: string;
  classFile: string;
  handler: CodeHandler;
}

interface Kept {
  handler: CodeHandler;
  components: ReadonlyMap<string, Component>;
  classFile: string;
  /** Module keys the description read (the class file's import closure); null until the build is noted. */
  reads: Set<string> | null;
}

export class HandlerCache {
  private readonly kept = new Map<string, Kept>();

  /** A route file's lookups and new descriptions, for one analysis of it. */
  forFile(): FileHandlers {
    return new FileHandlers(this.kept);
  }

  /** Gives the entries kept in this build what they read: `closure` of their class file. */
  noteReads(closure: (path: string) => Set<string>): void {
    for (const entry of this.kept.values()) entry.reads ??= closure(entry.classFile);
  }

  /** Drops every entry that read one of the `edited` module keys, or a file the import graph cannot follow. */
  forget(edited: ReadonlySet<string>): void {
    for (const [key, { reads }] of this.kept) {
      if (reads === null || reads.has(ANY_FILE) || [...edited].some((module) => reads.has(module))) this.kept.delete(key);
    }
  }

  clear(): void {
    this.kept.clear();
  }
}

/** What the resolver of one route file asks and tells (handler.ts). */
export class FileHandlers {
  private readonly described: Described[] = [];
  /** The component bodies of the handlers taken from the cache, by key. */
  readonly components = new Map<string, Component>();

  constructor(private readonly kept: Map<string, Kept>) {}

  /** A handler described in an earlier build, whose class file and its imports are as they were then. */
  reuse(key: string): CodeHandler | undefined {
    const entry = this.kept.get(key);
    if (entry?.reads == null) return undefined;
    for (const [name, component] of entry.components) this.components.set(name, component);
    return entry.handler;
  }

  describe(described: Described): void {
    this.described.push(described);
  }

  /** Keeps what this file described, once its analysis found no problem; `components` are the file's, by key. */
  keep(components: ReadonlyMap<string, Component>): void {
    for (const { key, classFile, handler } of this.described) {
      this.kept.set(key, { handler, components: reached(handler, components), classFile, reads: null });
    }
  }
}

/** The components `handler`'s schemas reach, through the `$ref`s of their bodies too. */
function reached(handler: CodeHandler, components: ReadonlyMap<string, Component>): Map<string, Component> {
  const found = new Map<string, Component>();
  const visit = (key: string): void => {
    const component = components.get(key);
    if (found.has(key) || component === undefined) return;
    found.set(key, component);
    forEachRef(component.schema, visit);
  };
  forEachRef(handlerSchemas(handler), visit);
  return found;
}

// TypeScript type → JSON Schema (2020-12, as OpenAPI 3.1 uses it), through the type
// checker. Named project types (interfaces, classes, enums, aliases) become components
// referenced by `$ref`; everything else is inlined. Results are cached per type in the
// registry, and a named type is registered before its body is walked, so recursive
// types end in a `$ref` instead of looping.
import { ts } from 'ts-morph';
import type { JsonSchema } from '../../json-schema.ts';
import { formatLocation } from '../../locations.ts';
import type { SchemaRegistry } from './registry.ts';
import { keysInUnionOrder, literalsInOrder, schemasInOrder } from './member-order.ts';
import { isPlatformClass } from './platform-class.ts';
import { skippedByJson } from './skipped-by-json.ts';
import { componentId, isProjectDeclaration, outsideSymbolName, type Locate } from './type-names.ts';
import { compareText } from '../../text-order.ts';

const F = ts.TypeFlags;
const NOTHING = F.Undefined | F.Void;

/** What `JSON.stringify` makes of a Map, a Set, an ArrayBuffer, a File: their data is not own properties. */
const EMPTY_OBJECT: JsonSchema = { type: 'object', maxProperties: 0 };

/** What `JSON.stringify` makes of a typed array: its elements by index, `{"0":1,"1":2}`. */
const INDEXED_INTEGERS: JsonSchema = { type: 'object', additionalProperties: { type: 'integer' } };

/**
 * Types from outside the project that serialise to something other than their declared
 * properties (lib.d.ts declares getters such as `size` and `byteLength` as properties).
 * Returned on their own, bytes and a `Response` are not JSON (return-cases.ts); these are
 * the forms they take inside JSON. A Buffer needs no entry: its `toJSON()` says it.
 */
const OPAQUE: Record<string, JsonSchema> = {
  Date: { type: 'string', format: 'date-time' },
  ...Object.fromEntries(
    ['Uint8Array', 'Uint8ClampedArray', 'Int8Array', 'Uint16Array', 'Int16Array', 'Uint32Array', 'Int32Array'].map((name) => [name, INDEXED_INTEGERS]),
  ),
  Float32Array: { type: 'object', additionalProperties: { type: 'number' } },
  Float64Array: { type: 'object', additionalProperties: { type: 'number' } },
  ArrayBuffer: EMPTY_OBJECT,
  DataView: EMPTY_OBJECT,
  RegExp: EMPTY_OBJECT,
  URLSearchParams: EMPTY_OBJECT,
  Headers: EMPTY_OBJECT,
  Map: EMPTY_OBJECT,
  Set: EMPTY_OBJECT,
  WeakMap: EMPTY_OBJECT,
  WeakSet: EMPTY_OBJECT,
  Response: EMPTY_OBJECT,
  Blob: EMPTY_OBJECT,
  File: EMPTY_OBJECT,
  // JSON writes a boxed primitive (`new Number(1)`) as the primitive, and the types take primitives too.
  Number: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  // Like `{}`: any value but null and undefined.
  Object: {},
};

/** Collections whose contents JSON drops without a word (`{}`): what to send instead. */
const EMPTIED: Record<string, string> = {
  Map: 'send Object.fromEntries(map), or [...map] for keys that are not strings',
  Set: 'send [...set]',
  Headers: 'send Object.fromEntries(headers)',
  URLSearchParams: 'send Object.fromEntries(params), or params.toString()',
  // `form.get(name)` is `string | File | null`: an upload sent back as it is.
  File: 'send what the client needs of it (file.name, file.type, file.size), or its text (await file.text())',
  Blob: 'send its text (await blob.text()), or return the Blob alone for its bytes',
};

const notParsed = (name: string): string =>
  `JSON.parse never gives a ${name}: json<T>() returns the plain data the client sent; type the body as that data (an object or an array) and build the ${name} from it.`;

/**
 * A generic can instantiate itself with ever new arguments (`type D<T> = { next: D<T[]> }`),
 * each a new named type; when one declaration nests this deep in itself, stop.
 */
const MAX_NESTED_INSTANTIATIONS = 10;

/**
 * How deep anonymous types may nest in one schema. A computed type can nest a thousand
 * levels (`type N<T, L extends 0[]> = L['length'] extends 999 ? T : N<{ x: T }, [...L, 0]>`);
 * a schema that deep overflows the stack of what reads it, svc build's naming included.
 */
const MAX_INLINE_DEPTH = 256;

/** Until naming.ts rewrites it, a `$ref` holds the component's key (type-names.ts). */
const ref = (key: string): JsonSchema => ({ $ref: key });

export class TypeSchemas {
  /**
   * Anonymous types on the current walk since the last named type: meeting one again means
   * a recursion without a name to `$ref`. A named type starts afresh, since a cycle through
   * it ends in its `$ref` (`Json[]` inside `type Json = … | Json[]`, met outside it first).
   */
  private active = new Set<ts.Type>();
  /** How many instantiations of each named declaration are on the current walk. */
  private readonly nesting = new Map<ts.Symbol, number>();
  /** Set once a nesting limit was hit, so one endless type gives one warning, not one per branch. */
  private cutOff = false;

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly registry: SchemaRegistry,
    /** The types are of a request body (`json<T>()`), which JSON.parse gave, not of data sent. */
    private readonly received = false,
  ) {}

  /** `site` is where a warning points when the type itself has no declaration in the project. */
  of(type: ts.Type, site: ts.Node): JsonSchema {
    const key = this.registry.keys.get(type);
    if (key) return ref(key);
    const cached = this.registry.inline.get(type);
    if (cached) return cached;
    const id = componentId(type, this.checker, this.locate);
    if (id) {
      const declaration = (type.aliasSymbol ?? type.getSymbol())!;
      const depth = this.nesting.get(declaration) ?? 0;
      if (depth >= MAX_NESTED_INSTANTIATIONS) return this.tooDeep(type, site);
      if (!this.registry.claim(type, id)) return ref(id.key);
      this.nesting.set(declaration, depth + 1);
      const outer = this.active;
      this.active = new Set();
      try {
        this.registry.components.get(id.key)!.schema = this.withDoc(this.body(type, site), declaration);
      } finally {
        this.nesting.set(declaration, depth);
        this.active = outer;
      }
      return ref(id.key);
    }
    if (this.active.has(type)) return this.unsupported(type, site, 'it refers to itself without a name; give it an interface or type alias');
    // `active` holds the anonymous types the walk is inside of: its size is how deep they nest.
    if (this.active.size >= MAX_INLINE_DEPTH) return this.cut(type, site, `it nests more than ${MAX_INLINE_DEPTH} levels deep without a name`);
    this.active.add(type);
    try {
      const schema = this.body(type, site);
      this.registry.inline.set(type, schema);
      return schema;
    } finally {
      this.active.delete(type);
    }
  }

  /** Some members of a union, described as the union of just those. */
  ofMembers(members: readonly ts.Type[], site: ts.Node): JsonSchema {
    return members.length === 1 ? this.of(members[0]!, site) : this.union(members, site);
  }

  /** Drops `undefined` and `void` members: an absent value has no JSON form of its own. */
  withoutNothing(type: ts.Type): ts.Type[] {
    return (type.isUnion() ? type.types : [type]).filter((t) => !(t.flags & NOTHING));
  }

  private body(type: ts.Type, site: ts.Node): JsonSchema {
    const f = type.flags;
    if (f & (F.Any | F.Unknown)) return {};
    if (f & F.Never) return { not: {} };
    // `boolean` is the union `true | false`; test it before unions.
    if (f & F.Boolean) return { type: 'boolean' };
    if (f & F.Union) return this.union(this.withoutNothing(type), site);
    if (type.isStringLiteral()) return { type: 'string', const: type.value };
    if (type.isNumberLiteral()) return { type: 'number', const: type.value };
    if (f & F.BooleanLiteral) return { type: 'boolean', const: type === this.checker.getTrueType() };
    if (f & (F.String | F.TemplateLiteral | F.StringMapping)) return { type: 'string' };
    if (f & F.Number) return { type: 'number' };
    if (f & (F.Null | NOTHING)) return { type: 'null' };
    if (f & F.TypeParameter) {
      const constraint = this.checker.getBaseConstraintOfType(type);
      return constraint && constraint !== type ? this.of(constraint, site) : {};
    }
    if (f & F.NonPrimitive) return { type: 'object' };
    if (f & F.Intersection) return this.intersection(type as ts.IntersectionType, site);
    if (f & F.Object) return this.object(type as ts.ObjectType, site);
    return this.unsupported(type, site, 'bigints, symbols and unresolved type operators have no JSON form');
  }

  private union(members: readonly ts.Type[], site: ts.Node, describe = (type: ts.Type) => this.of(type, site)): JsonSchema {
    const nullable = members.some((t) => t.flags & F.Null);
    const values = members.filter((t) => !(t.flags & F.Null));
    if (values.length > 0 && values.every((t) => t.isStringLiteral())) return literalEnum('string', values, nullable);
    if (values.length > 0 && values.every((t) => t.isNumberLiteral())) return literalEnum('number', values, nullable);
    const schemas: JsonSchema[] = [];
    const booleans = values.filter((t) => t.flags & F.BooleanLiteral);
    // `T | boolean` arrives as `T | true | false`; print the pair as one boolean again.
    if (booleans.length === 2) schemas.push({ type: 'boolean' });
    const others = values.filter((member) => booleans.length !== 2 || !booleans.includes(member));
    schemas.push(...schemasInOrder(others.map((type) => ({ type, schema: describe(type) }))));
    if (nullable) schemas.push({ type: 'null' });
    if (schemas.length === 1) return schemas[0]!;
    const plainTypes = schemas.every((s) => Object.keys(s).length === 1 && typeof s.type === 'string');
    return plainTypes ? { type: [...new Set(schemas.map((s) => s.type))] } : { anyOf: schemas };
  }

  private intersection(type: ts.IntersectionType, site: ts.Node): JsonSchema {
    // `string & { __brand: 'UserId' }` is a branded primitive: its JSON form is the primitive.
    const primitive = type.types.find((t) => t.flags & (F.StringLike | F.NumberLike | F.BooleanLike));
    return primitive ? this.of(primitive, site) : this.record(type, site);
  }

  private object(type: ts.ObjectType, site: ts.Node): JsonSchema {
    const outside = outsideSymbolName(type);
    if (outside && OPAQUE[outside]) {
      const instead = EMPTIED[outside];
      if (instead) this.registry.warn(this.received ? notParsed(outside) : `JSON writes a ${outside} as {}, without its contents; ${instead}.`, site);
      return OPAQUE[outside];
    }
    if (this.checker.isTupleType(type)) return this.tuple(type as ts.TupleTypeReference, site);
    if (this.checker.isArrayType(type)) {
      const [element] = this.checker.getTypeArguments(type as ts.TypeReference);
      return { type: 'array', items: element ? this.element(element, site) : {} };
    }
    const toJson = this.toJsonType(type);
    if (toJson) return this.written(toJson, site);
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
      return this.unsupported(type, site, 'functions and classes are not data');
    }
    if (outside && isPlatformClass(type, this.checker)) return EMPTY_OBJECT;
    return this.record(type, site);
  }

  /** `JSON.stringify` calls `toJSON` when there is one; document what it returns. */
  private toJsonType(type: ts.Type): ts.Type | undefined {
    const method = type.getProperty('toJSON');
    if (!method) return undefined;
    const [signature] = this.checker.getTypeOfSymbol(method).getCallSignatures();
    return signature ? this.checker.getReturnTypeOfSignature(signature) : undefined;
  }

  /** Whether the value's `toJSON` may return what JSON leaves out (`toJSON(): string | undefined`). */
  private writesNothing(type: ts.Type): boolean {
    const written = this.toJsonType(type);
    return written !== undefined && (written.isUnion() ? written.types : [written]).some((t) => t.flags & (NOTHING | F.Any | F.Unknown) || skippedByJson(t));
  }

  /**
   * What a `toJSON` returns, as JSON writes it: `JSON.stringify` does not call the result's
   * own `toJSON`, so `toJSON() { return this; }` sends the object's data (described as
   * itself, its schema would be a `$ref` to itself), and a Date returned is `{}`.
   */
  private written(type: ts.Type, site: ts.Node): JsonSchema {
    const asItIs = (t: ts.Type): JsonSchema => (this.toJsonType(t) ? this.record(t, site) : this.of(t, site));
    const members = type.isUnion() ? type.types : [type];
    if (!members.some((t) => this.toJsonType(t))) return this.of(type, site);
    return type.isUnion() ? this.union(this.withoutNothing(type), site, asItIs) : asItIs(type);
  }

  private tuple(type: ts.TupleTypeReference, site: ts.Node): JsonSchema {
    const flags = type.target.elementFlags;
    const elements = this.checker.getTypeArguments(type);
    const prefixItems: JsonSchema[] = [];
    let items: JsonSchema | false = false;
    elements.forEach((element, i) => {
      if (flags[i]! & ts.ElementFlags.Variable) items = this.element(element, site);
      else prefixItems.push(this.element(element, site));
    });
    const minItems = flags.filter((f) => f & ts.ElementFlags.Required).length;
    return {
      type: 'array',
      ...(prefixItems.length > 0 && { prefixItems }),
      ...(minItems > 0 && { minItems }),
      items,
    };
  }

  /**
   * An array element as JSON writes it: where a property that is `undefined` is left out,
   * an element is written as `null` (`JSON.stringify(['a', undefined])` is `["a",null]`),
   * and so is one whose `toJSON` returns `undefined`.
   */
  private element(type: ts.Type, site: ts.Node): JsonSchema {
    if (!(type.isUnion() ? type.types : [type]).some((t) => t.flags & NOTHING || this.writesNothing(t))) return this.of(type, site);
    return this.union([...this.withoutNothing(type), this.checker.getNullType()], site);
  }

  /** An object's own data (isOwnData) and index signatures. */
  private record(type: ts.Type, site: ts.Node): JsonSchema {
    // Pairs for Object.fromEntries: assigning a key `__proto__` (data in `{ ['__proto__']: 1 }`) would set the prototype.
    const properties: Array<[string, JsonSchema]> = [];
    const required: string[] = [];
    for (const property of this.checker.getPropertiesOfType(type)) {
      const name = property.getName();
      if (!isOwnData(property) || hasNoJsonKey(property)) continue;
      const declared = this.checker.getTypeOfSymbol(property);
      const members = this.withoutNothing(declared);
      if (members.length === 0) continue;
      const declaration = property.valueDeclaration;
      // A framework checked out beside the project, not installed in it, is no package, yet its files are not the project's to point at.
      const where = declaration && isProjectDeclaration(declaration) && this.insideRoot(declaration) ? declaration : site;
      // JSON leaves out a property whose value is undefined, a function or a symbol, or
      // whose `toJSON` returns one; one typed `any` or `unknown` may hold any of them.
      const sometimesLeftOut =
        members.length !== (declared.isUnion() ? declared.types.length : 1) ||
        members.some((t) => skippedByJson(t) || t.flags & (F.Any | F.Unknown) || this.writesNothing(t));
      const optional = property.flags & ts.SymbolFlags.Optional || sometimesLeftOut;
      properties.push([name, this.withDoc(this.of(optional ? this.asWritten(property) ?? declared : declared, where), property)]);
      if (!optional) required.push(name);
    }
    const index = this.checker.getIndexInfosOfType(type).find((info) => info.keyType.flags & (F.String | F.Number));
    return {
      type: 'object',
      ...(properties.length > 0 && { properties: Object.fromEntries(properties) }),
      ...(required.length > 0 && { required: keysInUnionOrder(type) ? [...required].sort(compareText) : required }),
      ...(index && { additionalProperties: this.of(index.type, site) }),
    };
  }

  /**
   * `status?: Status` has the type `Status | undefined`, a union without the alias' name;
   * the annotation as written keeps it. Members of instantiated generics and mapped types
   * (transient symbols) have no annotation of their own to go back to.
   */
  private asWritten(symbol: ts.Symbol): ts.Type | undefined {
    const declaration = symbol.valueDeclaration;
    if (symbol.flags & ts.SymbolFlags.Transient || !declaration || !('type' in declaration)) return undefined;
    const annotation = declaration.type as ts.TypeNode | undefined;
    return annotation ? this.checker.getTypeFromTypeNode(annotation) : undefined;
  }

  /** The symbol's JSDoc text as the schema's `description`. */
  private withDoc(schema: JsonSchema, symbol: ts.Symbol | undefined): JsonSchema {
    const doc = symbol ? ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim() : '';
    return doc ? { ...schema, description: doc } : schema;
  }

  private readonly locate: Locate = (declaration) => formatLocation(this.registry.reporter.at(declaration));

  private insideRoot(node: ts.Node): boolean {
    return !this.registry.reporter.relative(node.getSourceFile().fileName).startsWith('../');
  }

  private tooDeep(type: ts.Type, site: ts.Node): JsonSchema {
    return this.cut(type, site, `its generic instantiates itself with new type arguments more than ${MAX_NESTED_INSTANTIATIONS} levels deep`);
  }

  private cut(type: ts.Type, site: ts.Node, why: string): JsonSchema {
    if (this.cutOff) return {};
    this.cutOff = true;
    return this.unsupported(type, site, why);
  }

  private unsupported(type: ts.Type, site: ts.Node, why: string): JsonSchema {
    const text = this.checker.typeToString(type);
    this.registry.warn(`the type \`${text}\` cannot be described as JSON (${why}); it is documented as {}.`, site);
    return {};
  }
}

/**
 * Properties, and the getters of object literals, which are own properties that JSON
 * writes; a class's getters live on the prototype, which it skips, and methods are functions.
 */
const isOwnData = (property: ts.Symbol): boolean =>
  ((property.flags & ts.SymbolFlags.Property) !== 0 && !fromLibError(property)) ||
  (property.declarations ?? []).some((d) => ts.isGetAccessorDeclaration(d) && ts.isObjectLiteralExpression(d.parent));

/**
 * An Error's `message`, `stack` and `cause` are not enumerable and its `name` is on the
 * prototype: `JSON.stringify(new Error('x'))` is `{}`, and a subclass shows only its own fields.
 */
function fromLibError(property: ts.Symbol): boolean {
  const declarations = property.declarations ?? []; // none for the keys of a mapped type
  return declarations.length > 0 && declarations.every((d) => !isProjectDeclaration(d) && ts.isInterfaceDeclaration(d.parent) && d.parent.name.text === 'Error');
}

/**
 * `#private` fields and symbol-keyed properties, which `JSON.stringify` leaves out. The
 * checker spells their keys `__#1@#name` and `__@name@12`; a quoted key that merely looks
 * so (`'#text'`, `'__@x'`) is data, and its escaped name differs (`#text`, `___@x`).
 */
const hasNoJsonKey = (property: ts.Symbol): boolean => /^__[#@]/.test(property.escapedName as string);

function literalEnum(type: 'string' | 'number', members: ts.Type[], nullable: boolean): JsonSchema {
  const values: unknown[] = literalsInOrder(members);
  return nullable ? { type: [type, 'null'], enum: [...values, null] } : { type, enum: values };
}

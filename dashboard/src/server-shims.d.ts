/**
 * The API's response classes are imported as types (types.ts). team.responses.ts takes its status
 * type from the invitations entity, whose token digest column is a Node Buffer; the page never
 * holds one, but the name has to exist for that file to check without Node's types.
 */
type Buffer = Uint8Array;

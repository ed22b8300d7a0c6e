/**
 * The arena's public name of an account: an adjective, an animal and four hex digits drawn from the
 * SHA-256 of the account id. Stable for an account (its books share it), and it shows neither the
 * e-mail, nor a key, nor the account id itself (which is not reversible from it).
 */
import { createHash } from 'node:crypto';

const ADJECTIVES = (
  'amber bold brisk calm clever cosmic crimson daring eager fabled fierce gentle golden hardy humble jolly ' +
  'keen lucky lunar mighty nimble noble patient quiet rapid rugged silent solar steady swift vivid wise'
).split(' ');
const ANIMALS = (
  'badger bison condor coyote crane dolphin eagle falcon ferret fox gecko heron ibex jaguar koala lynx ' +
  'marlin moose narwhal otter owl panda puma raven salmon shark tiger turtle viper walrus wolf yak'
).split(' ');

/** e.g. `swift-otter-3fa9`: about 67 million names, so two accounts rarely share one (the book, `account`, tells rows apart). */
export function publicHandle(accountId: string): string {
  const digest = createHash('sha256').update(`arena:${accountId}`).digest();
  const adjective = ADJECTIVES[digest[0] % ADJECTIVES.length];
  const animal = ANIMALS[digest[1] % ANIMALS.length];
  return `${adjective}-${animal}-${digest.readUInt16BE(2).toString(16).padStart(4, '0')}`;
}

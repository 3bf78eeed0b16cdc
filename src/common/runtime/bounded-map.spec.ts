import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('drops the oldest entry when a new key comes to a full map', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('c', 3);
    expect([...map.entries()]).toEqual([
      ['b', 2],
      ['c', 3],
    ]);
  });

  it('replaces the value of a key it holds without dropping another', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 3);
    expect([...map.entries()]).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });
});

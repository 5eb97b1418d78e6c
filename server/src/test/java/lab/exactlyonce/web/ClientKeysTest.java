package lab.exactlyonce.web;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What every per-address limit counts as one address: an IPv4 address, or the IPv6 block a client holds whole. */
class ClientKeysTest {
  @ParameterizedTest(name = "{0} /{1} -> {2}")
  @CsvSource({
      "203.0.113.7, 64, 203.0.113.7",
      "2001:db8:1:2:aaaa:bbbb:cccc:dddd, 64, 2001:db8:1:2:0:0:0:0/64",
      "2001:db8:1:2::1, 64, 2001:db8:1:2:0:0:0:0/64",
      "[2001:db8:1:2::ffff], 64, 2001:db8:1:2:0:0:0:0/64",
      "2001:db8:1:3::1, 64, 2001:db8:1:3:0:0:0:0/64",
      "2001:db8:1:2:aaaa::1, 56, 2001:db8:1:0:0:0:0:0/56",
      "2001:db8::1, 128, 2001:db8:0:0:0:0:0:1/128",
      "::ffff:198.51.100.4, 64, 198.51.100.4",
      "not an address, 64, not an address"})
  void an_address_counts_under_its_network(String address, int bits, String network) {
    assertEquals(network, ClientKeys.network(address, bits));
  }
}

package kafkaperf.client;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.serialization.Serializer;

/**
 * The key of each record from its id, as KafkaPerf.Core's RecordKeys computes it, so that both clients send the same
 * keys: unique (the id, 8 bytes big-endian, zero-padded in front to the key size: Kafka's LongSerializer layout at 8
 * bytes), none (no key), or a table of keys - the key's index in ASCII decimal, zero-padded - chosen by the id's
 * splitmix64 bits: modulo N (random), or by cumulative thresholds that .NET computed (zipf).
 */
final class RecordKeys implements Serializer<Long> {
    static final int UNIQUE = 0;
    static final int NONE = 1;
    static final int FIXED = 2;
    static final int RANDOM = 3;
    static final int ZIPF = 4;

    private int mode = UNIQUE;
    private int keySize = 8;
    private byte[][] table = new byte[0][];
    private long[] thresholds = new long[0];

    /** Sets the distribution; called once, before the first record. */
    void configure(int mode, int count, int keySize, byte[] thresholdBytes) {
        this.mode = mode;
        this.keySize = keySize;
        if (mode == FIXED || mode == RANDOM || mode == ZIPF) {
            table = new byte[count][];
            for (int i = 0; i < count; i++) {
                String digits = Integer.toString(i);
                StringBuilder padded = new StringBuilder(keySize);
                for (int p = digits.length(); p < keySize; p++) padded.append('0');
                table[i] = padded.append(digits).toString().getBytes(StandardCharsets.US_ASCII);
            }
        }
        if (mode == ZIPF) {
            thresholds = new long[thresholdBytes.length / 8];
            ByteBuffer.wrap(thresholdBytes).asLongBuffer().get(thresholds);
        }
    }

    @Override
    public byte[] serialize(String topic, Long id) {
        long value = id;
        switch (mode) {
            case UNIQUE: {
                byte[] key = new byte[keySize];
                for (int i = 0; i < 8; i++) key[keySize - 1 - i] = (byte) (value >>> (8 * i));
                return key;
            }
            case NONE:
                return null;
            case FIXED:
                return table[0];
            case RANDOM:
                return table[(int) ((mix(value) >>> 1) % table.length)];
            default: {
                long u = mix(value) >>> 2;
                int low = 0;
                int high = thresholds.length - 1;
                while (low < high) {
                    int middle = (low + high) >>> 1;
                    if (u < thresholds[middle]) high = middle;
                    else low = middle + 1;
                }
                return table[low];
            }
        }
    }

    /** splitmix64's finalizer, as KafkaPerf.Core's RecordKeys.Mix. */
    static long mix(long id) {
        long z = id + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}

package kafkaperf.client;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.utils.AppInfoParser;

/** Settings as {@code key, value, key, value, ...} arrays, and the configuration the client really runs with. */
public final class Settings {
    private Settings() {
    }

    /** The version of the Kafka client jar on the class path. */
    public static String clientVersion() {
        return AppInfoParser.getVersion();
    }

    static Properties properties(String[] pairs) {
        Properties properties = new Properties();
        for (int i = 0; i + 1 < pairs.length; i += 2) properties.put(pairs[i], pairs[i + 1]);
        return properties;
    }

    /** Producer settings with the serializers KafkaPerf uses: Kafka's big-endian LongSerializer and byte arrays. */
    static Properties producer(String[] pairs) {
        Properties properties = properties(pairs);
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, LongSerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return properties;
    }

    /** Consumer settings with byte-array deserializers: .NET reads the key's 8 bytes itself. */
    static Properties consumer(String[] pairs) {
        Properties properties = properties(pairs);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return properties;
    }

    /** Every producer setting with its effective value (defaults included; passwords stay hidden). */
    public static String[] effectiveProducer(String[] pairs) {
        return flatten(new ProducerConfig(producer(pairs)));
    }

    /** Every consumer setting with its effective value (defaults included; passwords stay hidden). */
    public static String[] effectiveConsumer(String[] pairs) {
        return flatten(consumerConfig(consumer(pairs)));
    }

    /**
     * The consumer's configuration as its client reads it: a share consumer's (share.acknowledgement.mode set) as
     * {@code KafkaShareConsumer} does, whose configuration class is not public, since a classic consumer refuses that key.
     */
    static AbstractConfig consumerConfig(Properties properties) {
        if (!properties.containsKey(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG)) return new ConsumerConfig(properties);
        try {
            Constructor<?> share = Class.forName("org.apache.kafka.clients.consumer.ShareConsumerConfig").getDeclaredConstructor(Properties.class);
            share.setAccessible(true);
            return (AbstractConfig) share.newInstance(properties);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException runtime) throw runtime;
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("The Java client has no share consumer configuration: " + e, e);
        }
    }

    /**
     * Checks producer and consumer settings the way the clients would, plus unknown keys (which the clients only log).
     *
     * @return {@code null} when usable, otherwise one line saying what is wrong.
     */
    public static String check(String[] producer, String[] consumer, String[] overrideKeys) {
        for (String key : overrideKeys) {
            if (!ProducerConfig.configNames().contains(key) && !ConsumerConfig.configNames().contains(key)) {
                return "'" + key + "' is not a setting of the Java producer or consumer";
            }
        }
        try {
            new ProducerConfig(producer(producer));
            consumerConfig(consumer(consumer));
            return null;
        } catch (RuntimeException e) {
            return e.getMessage();
        }
    }

    private static String[] flatten(AbstractConfig config) {
        Map<String, String> sorted = new TreeMap<>();
        for (Map.Entry<String, ?> entry : config.values().entrySet()) {
            Object value = entry.getValue();
            sorted.put(entry.getKey(), value == null ? "null" : value.toString());
        }
        String[] pairs = new String[sorted.size() * 2];
        int i = 0;
        for (Map.Entry<String, String> entry : sorted.entrySet()) {
            pairs[i++] = entry.getKey();
            pairs[i++] = entry.getValue();
        }
        return pairs;
    }
}

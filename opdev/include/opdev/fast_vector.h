/* opdev/fast_vector.h: op::FVector<T, N>, opbase's small vector. Here a std::vector (N, the
   inline capacity of opbase's, is only accepted), except that FVector<bool> is a real array
   of bool: ops-nn hands `FVector<bool>::data()` to ConvertToTensor, which std::vector<bool>'s
   packed bits cannot give. */
#ifndef MG_OPDEV_FAST_VECTOR_H_
#define MG_OPDEV_FAST_VECTOR_H_

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace op {
template <typename T, size_t N = 8> class FVector : public std::vector<T> {
public:
    using std::vector<T>::vector;
    FVector() = default;
    FVector(const std::vector<T> &v) : std::vector<T>(v) {}
    FVector(std::vector<T> &&v) : std::vector<T>(std::move(v)) {}
};

template <size_t N> class FVector<bool, N> {
public:
    using value_type = bool;
    using size_type = size_t;
    using iterator = bool *;
    using const_iterator = const bool *;
    using reference = bool &;
    using const_reference = const bool &;

    FVector() = default;
    explicit FVector(size_t n, bool v = false) { resize(n, v); }
    FVector(std::initializer_list<bool> init)
    {
        reserve(init.size());
        for (bool b : init) push_back(b);
    }
    FVector(const FVector &o) { *this = o; }
    FVector(FVector &&o) noexcept : data_(std::move(o.data_)), size_(o.size_), cap_(o.cap_) { o.size_ = o.cap_ = 0; }
    FVector &operator=(const FVector &o)
    {
        if (this != &o) {
            clear();
            reserve(o.size_);
            std::copy(o.begin(), o.end(), data_.get());
            size_ = o.size_;
        }
        return *this;
    }
    FVector &operator=(FVector &&o) noexcept
    {
        data_ = std::move(o.data_);
        size_ = o.size_;
        cap_ = o.cap_;
        o.size_ = o.cap_ = 0;
        return *this;
    }

    bool *data() { return data_.get(); }
    const bool *data() const { return data_.get(); }
    size_t size() const { return size_; }
    size_t capacity() const { return cap_; }
    bool empty() const { return size_ == 0; }
    bool &operator[](size_t i) { return data_[i]; }
    const bool &operator[](size_t i) const { return data_[i]; }
    bool &at(size_t i) { return data_[i]; }
    bool &front() { return data_[0]; }
    bool &back() { return data_[size_ - 1]; }
    iterator begin() { return data_.get(); }
    iterator end() { return data_.get() + size_; }
    const_iterator begin() const { return data_.get(); }
    const_iterator end() const { return data_.get() + size_; }
    void clear() { size_ = 0; }
    void reserve(size_t n)
    {
        if (n <= cap_) return;
        std::unique_ptr<bool[]> grown(new bool[n]());
        if (size_ > 0) std::copy(begin(), end(), grown.get());
        data_ = std::move(grown);
        cap_ = n;
    }
    void resize(size_t n, bool v = false)
    {
        reserve(n);
        for (size_t i = size_; i < n; i++) data_[i] = v;
        size_ = n;
    }
    void push_back(bool v)
    {
        if (size_ == cap_) reserve(cap_ ? 2 * cap_ : (N > 0 ? N : 4));
        data_[size_++] = v;
    }
    void emplace_back(bool v) { push_back(v); }
    void pop_back() { size_--; }

private:
    std::unique_ptr<bool[]> data_;
    size_t size_ = 0;
    size_t cap_ = 0;
};
} // namespace op

#endif
